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

// A node's own part (its line and notes), apart from its children: what changes when only its status does.
function drawHead(node) {
  const line = element('div', 'line');
  const name = element(EVENT_KINDS[node.kind] ? 'button' : 'span', 'name', node.name);
  if (EVENT_KINDS[node.kind]) {
    name.title = 'Events';
    name.addEventListener('click', () => showEvents(node));
  }
  line.append(element('span', 'badge', node.phase ?? '—'), element('span', 'kind', node.kind), name);
  const clock = element('span', 'clock', elapsed(node));
  clock.dataset.startedAt = node.startedAt ?? '';
  clock.dataset.finishedAt = node.finishedAt ?? '';
  line.append(clock);
  if (node.kind === 'Pod' || node.kind === 'ChaosPod') {
    const button = element('button', 'action', 'Logs');
    button.dataset.action = 'logs';
    button.addEventListener('click', () => showLog(node));
    line.append(button);
  }
  for (const action of node.actions ?? []) {
    const button = element('button', 'action', action.label);
    button.dataset.action = action.name;
    button.addEventListener('click', () => act(node, action));
    line.append(button);
  }
  const head = [line];
  for (const note of node.notes) {
    const p = element('div', `note tone-${note.tone}`);
    p.append(element('span', 'label', note.label), document.createTextNode(` ${note.text}`));
    head.push(p);
  }
  return head;
}

function drawNode(node) {
  const item = element('li', `node state-${node.state}`);
  item.dataset.id = node.id;
  item.dataset.state = node.state;
  item.append(...drawHead(node));
  if (node.children.some((child) => child.dependsOn)) item.append(drawDag(node.children));
  else if (node.children.length > 0) {
    const list = element('ul');
    for (const child of node.children) list.append(drawNode(child));
    item.append(list);
  }
  return item;
}

// Siblings with dependsOn (a Landscaper execution's deploy items) as a DAG: one column per layer (the longest
// chain of dependencies before an item), an arrow from each dependency to its dependent. A cycle's members,
// which have no layer, go in a last column.
function layersOf(nodes) {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const depth = new Map();
  const visiting = new Set();
  const visit = (node) => {
    if (depth.has(node.id)) return depth.get(node.id);
    if (visiting.has(node.id)) return Infinity;
    visiting.add(node.id);
    let d = 0;
    for (const dep of node.dependsOn ?? []) {
      const parent = byId.get(dep);
      if (parent) d = Math.max(d, visit(parent) + 1);
    }
    visiting.delete(node.id);
    depth.set(node.id, d);
    return d;
  };
  for (const node of nodes) visit(node);
  const finite = [...depth.values()].filter(Number.isFinite);
  const last = finite.length > 0 ? Math.max(...finite) + 1 : 0;
  const layers = [];
  for (const node of nodes) {
    const d = Number.isFinite(depth.get(node.id)) ? depth.get(node.id) : last;
    (layers[d] ??= []).push(node);
  }
  return layers.filter(Boolean);
}

function drawDag(nodes) {
  const dag = element('div', 'dag');
  const edges = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  edges.classList.add('edges');
  dag.append(edges);
  for (const layer of layersOf(nodes)) {
    const column = element('div', 'layer');
    for (const node of layer) {
      const box = drawNode({ ...node, children: [] });
      box.classList.add('dag-item');
      box.dataset.dependsOn = (node.dependsOn ?? []).join(' ');
      column.append(box);
    }
    dag.append(column);
  }
  pendingEdges.push(dag);
  return dag;
}

// Arrows need the laid-out boxes: drawn once the browser has placed them.
const pendingEdges = [];
function drawEdges() {
  for (const dag of pendingEdges.splice(0)) {
    const svg = dag.querySelector('svg.edges');
    const origin = dag.getBoundingClientRect();
    svg.setAttribute('width', String(dag.scrollWidth));
    svg.setAttribute('height', String(dag.scrollHeight));
    const boxes = new Map([...dag.querySelectorAll('.dag-item')].map((box) => [box.dataset.id, box]));
    const paths = [];
    for (const box of boxes.values()) {
      for (const dep of (box.dataset.dependsOn || '').split(' ').filter(Boolean)) {
        const from = boxes.get(dep)?.querySelector('.line')?.getBoundingClientRect();
        const to = box.querySelector('.line').getBoundingClientRect();
        if (!from) continue;
        const x1 = from.right - origin.left;
        const y1 = from.top + from.height / 2 - origin.top;
        const x2 = to.left - origin.left;
        const y2 = to.top + to.height / 2 - origin.top;
        paths.push(`M${x1},${y1} C${x1 + 24},${y1} ${x2 - 24},${y2} ${x2},${y2}`);
      }
    }
    const path = document.createElementNS('http://www.w3.org/2000/svg', 'path');
    path.setAttribute('d', paths.join(' '));
    svg.replaceChildren(path);
  }
}

let panelSource;

// A panel at the bottom of the page (a log, Events), fed by one EventSource until it closes.
function openPanel(title, url) {
  panelSource?.close();
  document.getElementById('panel')?.remove();
  const panel = element('section', 'panel');
  panel.id = 'panel';
  const heading = element('h2', '', title);
  const close = element('button', 'action', 'Close');
  close.addEventListener('click', () => {
    panelSource?.close();
    panel.remove();
  });
  heading.append(close);
  const body = element('pre', 'panel-text');
  panel.append(heading, body);
  document.body.append(panel);
  panelSource = new EventSource(url);
  panelSource.addEventListener('end', (event) => {
    body.append(element('span', 'panel-end', `\n— ${JSON.parse(event.data)} —`));
    panelSource.close();
  });
  return { source: panelSource, body };
}

// A pod's log, followed; it scrolls with the log unless the reader scrolled up.
function showLog(node) {
  const { source, body } = openPanel(`log of ${node.namespace}/${node.name}`, `/api/logs?namespace=${encodeURIComponent(node.namespace)}&pod=${encodeURIComponent(node.name)}`);
  source.addEventListener('log', (event) => {
    const follow = body.scrollTop + body.clientHeight >= body.scrollHeight - 4;
    body.append(JSON.parse(event.data));
    if (follow) body.scrollTop = body.scrollHeight;
  });
}

// The kinds whose nodes are API objects of that kind (the others are parts of one, like a chaos injection).
const EVENT_KINDS = { ChaosPod: 'Pod', Pod: 'Pod', Deployment: 'Deployment', Job: 'Job', Node: 'Node', Installation: 'Installation', Execution: 'Execution', DeployItem: 'DeployItem', Disruption: 'Disruption', Repository: 'Repository', Branch: 'Branch', Workflow: 'Workflow' };

// An object's Events, as kubectl describe lists them, kept current.
function showEvents(node) {
  const kind = EVENT_KINDS[node.kind];
  const { source, body } = openPanel(`Events of ${kind} ${node.namespace ? `${node.namespace}/` : ''}${node.name}`, `/api/events?namespace=${encodeURIComponent(node.namespace)}&kind=${kind}&name=${encodeURIComponent(node.name)}`);
  body.classList.add('events');
  source.addEventListener('events', (event) => {
    const lines = JSON.parse(event.data);
    if (lines.length === 0) return body.replaceChildren('no events');
    body.replaceChildren(...lines.map((e) => {
      const row = element('div', `event event-${e.type}`);
      row.append(element('span', 'event-time', e.last), element('span', 'event-type', e.type), element('span', 'event-reason', e.reason), element('span', 'event-count', e.count > 1 ? `×${e.count}` : ''), element('span', 'event-source', e.source), element('span', 'event-message', e.message));
      return row;
    }));
  });
}

let shownView;

async function act(node, action) {
  if (!confirm(action.confirm)) return;
  const response = await fetch(`/api/views/${shownView}/actions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Bosun-Dashboard': 'action' },
    body: JSON.stringify({ namespace: node.namespace, node: node.id, action: action.name }),
  });
  const answer = await response.json();
  connection.textContent = response.ok ? answer.message : `failed: ${answer.message}`;
}

// What decides the page's shape: the nodes, their order and their dependencies. While it stays the same, a
// change redraws only the nodes whose own part changed, in place (a job turning 1,000 items green one by one
// must not rebuild 1,000 boxes each time).
function shapeOf(nodes) {
  return nodes.map((node) => `${node.id}<${(node.dependsOn ?? []).join(',')}>[${shapeOf(node.children)}]`).join(';');
}

const headOf = (node) => JSON.stringify({ ...node, children: undefined });
let shownShape;
let shownHeads = new Map();

function draw() {
  const shape = shapeOf(roots);
  const heads = new Map();
  const collect = (nodes) => {
    for (const node of nodes) {
      heads.set(node.id, headOf(node));
      collect(node.children);
    }
  };
  collect(roots);
  if (shape === shownShape) {
    let resized = false;
    const patch = (nodes) => {
      for (const node of nodes) {
        if (heads.get(node.id) !== shownHeads.get(node.id)) {
          const item = tree.querySelector(`li[data-id="${CSS.escape(node.id)}"]`);
          if (item) {
            const notesBefore = item.querySelectorAll(':scope > .note').length;
            for (const child of [...item.children]) if (child.matches('.line, .note')) child.remove();
            item.prepend(...drawHead(node));
            item.className = `node state-${node.state}${item.classList.contains('dag-item') ? ' dag-item' : ''}`;
            item.dataset.state = node.state;
            resized ||= notesBefore !== node.notes.length;
          }
        }
        patch(node.children);
      }
    };
    patch(roots);
    shownHeads = heads;
    // Boxes that grew or shrank move the arrows' ends.
    if (resized) {
      pendingEdges.push(...tree.querySelectorAll('.dag'));
      requestAnimationFrame(drawEdges);
    }
    return;
  }
  shownShape = shape;
  shownHeads = heads;
  const list = element('ul', 'roots');
  for (const root of roots) list.append(drawNode(root));
  if (roots.length === 0) list.append(element('li', 'empty', `nothing in namespace ${namespaceInput.value}`));
  tree.replaceChildren(list);
  requestAnimationFrame(drawEdges);
}

// Events may come faster than frames: the latest wins, drawn once per frame.
let drawScheduled = false;
function scheduleDraw() {
  if (drawScheduled) return;
  drawScheduled = true;
  requestAnimationFrame(() => {
    drawScheduled = false;
    draw();
  });
}

function tick() {
  for (const clock of tree.querySelectorAll('.clock')) {
    if (!clock.dataset.startedAt || clock.dataset.finishedAt) continue;
    clock.textContent = elapsed({ startedAt: clock.dataset.startedAt });
  }
}

function show(view) {
  source?.close();
  shownView = view;
  shownShape = undefined;
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
    scheduleDraw();
  });
  source.addEventListener('error', () => {
    connection.textContent = 'reconnecting…';
    connection.classList.add('stale');
  });
}

async function start() {
  const response = await fetch('/api/views');
  const list = await response.json();
  // Read after the fetch: the address may have changed meanwhile.
  const [hashView, hashNamespace] = location.hash.slice(1).split('/');
  if (hashNamespace) namespaceInput.value = hashNamespace;
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
  // A link to another view or namespace (#view/namespace) switches without a reload.
  addEventListener('hashchange', () => {
    const [view, namespace] = location.hash.slice(1).split('/');
    if (namespace) namespaceInput.value = namespace;
    if (list.some((v) => v.name === view)) show(view);
  });
  setInterval(tick, 1000);
}

start().catch((error) => {
  connection.textContent = `error: ${error.message}`;
});
