// The dashboard page: one EventSource per shown view (the server pushes every change), drawn as a tree whose
// durations tick every second on the page's own clock, corrected by the server's time in each event.
const views = document.getElementById('views');
const tree = document.getElementById('tree');
const namespaceInput = document.getElementById('namespace');
const connection = document.getElementById('connection');

let source;
let roots = [];
let clockSkewMs = 0;

function duration(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  const h = Math.floor(m / 60);
  return `${h}h${String(m % 60).padStart(2, '0')}m`;
}

function elapsed(node) {
  if (!node.startedAt) return '';
  const end = node.finishedAt ? Date.parse(node.finishedAt) : Date.now() + clockSkewMs;
  return duration(end - Date.parse(node.startedAt));
}

function element(tag, className, text) {
  const el = document.createElement(tag);
  if (className) el.className = className;
  if (text !== undefined) el.textContent = text;
  return el;
}

function drawNode(node) {
  const item = element('li', `node state-${node.state}`);
  item.dataset.id = node.id;
  item.dataset.state = node.state;
  const line = element('div', 'line');
  line.append(element('span', 'badge', node.phase ?? '—'), element('span', 'kind', node.kind), element('span', 'name', node.name));
  const clock = element('span', 'clock', elapsed(node));
  clock.dataset.startedAt = node.startedAt ?? '';
  clock.dataset.finishedAt = node.finishedAt ?? '';
  line.append(clock);
  item.append(line);
  for (const note of node.notes) {
    const p = element('div', `note tone-${note.tone}`);
    p.append(element('span', 'label', note.label), document.createTextNode(` ${note.text}`));
    item.append(p);
  }
  if (node.children.length > 0) {
    const list = element('ul');
    for (const child of node.children) list.append(drawNode(child));
    item.append(list);
  }
  return item;
}

function draw() {
  const list = element('ul', 'roots');
  for (const root of roots) list.append(drawNode(root));
  if (roots.length === 0) list.append(element('li', 'empty', `nothing in namespace ${namespaceInput.value}`));
  tree.replaceChildren(list);
}

function tick() {
  for (const clock of tree.querySelectorAll('.clock')) {
    if (!clock.dataset.startedAt || clock.dataset.finishedAt) continue;
    clock.textContent = elapsed({ startedAt: clock.dataset.startedAt });
  }
}

function show(view) {
  source?.close();
  for (const link of views.querySelectorAll('a')) link.classList.toggle('current', link.dataset.view === view);
  const namespace = namespaceInput.value.trim() || 'default';
  history.replaceState(null, '', `/#${view}/${namespace}`);
  connection.textContent = 'connecting…';
  source = new EventSource(`/api/views/${view}/events?namespace=${encodeURIComponent(namespace)}`);
  source.addEventListener('view', (event) => {
    const data = JSON.parse(event.data);
    clockSkewMs = Date.parse(data.serverTime) - Date.now();
    roots = data.roots;
    connection.textContent = data.stale ? `stale: ${data.stale}` : 'live';
    connection.classList.toggle('stale', Boolean(data.stale));
    draw();
  });
  source.addEventListener('error', () => {
    connection.textContent = 'reconnecting…';
    connection.classList.add('stale');
  });
}

async function start() {
  const [hashView, hashNamespace] = location.hash.slice(1).split('/');
  if (hashNamespace) namespaceInput.value = hashNamespace;
  const response = await fetch('/api/views');
  const list = await response.json();
  for (const view of list) {
    const link = element('a', '', view.title);
    link.href = `#${view.name}`;
    link.dataset.view = view.name;
    link.addEventListener('click', (event) => {
      event.preventDefault();
      show(view.name);
    });
    views.append(link);
  }
  namespaceInput.addEventListener('change', () => show(views.querySelector('a.current')?.dataset.view ?? list[0].name));
  const first = list.find((view) => view.name === hashView) ?? list[0];
  if (first) show(first.name);
  setInterval(tick, 1000);
}

start().catch((error) => {
  connection.textContent = `error: ${error.message}`;
});
