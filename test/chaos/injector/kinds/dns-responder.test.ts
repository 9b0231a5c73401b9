// The DNS responder over real UDP and TCP sockets on loopback: configured records answered (A round-robin,
// AAAA, CNAME, TXT, parent-domain match, NXDOMAIN, SERVFAIL, DROP), other names forwarded to an upstream
// (itself a responder here) and its answer relayed.
import assert from 'node:assert/strict';
import { createSocket } from 'node:dgram';
import { after, before, test } from 'node:test';
import { parseDnsRecords } from '../../../../src/chaos/injector/kinds/dns/dns-records.ts';
import { queryTcp, startDnsResponder } from '../../../../src/chaos/injector/kinds/dns/dns-responder.ts';
import * as dnsPacket from 'dns-packet';

let id = 0;
function query(name: string, type: 'A' | 'AAAA' | 'TXT'): Buffer {
  return dnsPacket.encode({ type: 'query', id: ++id, flags: dnsPacket.RECURSION_DESIRED, questions: [{ type, name }] });
}

/** rcode and the data of each answer (TXT as text). */
function decode(answer: Buffer): { id: number; rcode: string; answers: string[] } {
  const packet = dnsPacket.decode(answer) as dnsPacket.DecodedPacket & { rcode: string };
  const answers = (packet.answers ?? []).map((a) => (a.type === 'TXT' ? (a.data as Buffer[]).map(String).join('') : a.type === 'OPT' ? '' : String(a.data)));
  return { id: packet.id ?? 0, rcode: packet.rcode, answers };
}

function udpQuery(port: number, q: Buffer, timeoutMs = 2000): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    const socket = createSocket('udp4');
    const timer = setTimeout(() => {
      socket.close();
      resolve(undefined);
    }, timeoutMs);
    socket.on('message', (msg) => {
      clearTimeout(timer);
      socket.close();
      resolve(msg);
    });
    socket.send(q, port, '127.0.0.1');
  });
}

let upstream: Awaited<ReturnType<typeof startDnsResponder>>;
let responder: Awaited<ReturnType<typeof startDnsResponder>>;

before(async () => {
  upstream = await startDnsResponder({ records: parseDnsRecords('other.example:A:10.8.8.8:300'), udpPort: 0, tcpPort: 0, protocol: 'udp', upstreamDns: [] }, '127.0.0.1');
  responder = await startDnsResponder(
    {
      records: parseDnsRecords('api.shop:A:10.1.1.1,10.1.1.2:60;v6.shop:AAAA:fd00::1:60;alias.shop:CNAME:api.shop:60;txt.shop:TXT:hello:60;gone.shop:A:NXDOMAIN:60;broken.shop:A:SERVFAIL:60;slow.shop:A:DROP:60;shop:A:10.5.5.5:60'),
      udpPort: 0,
      tcpPort: 0,
      protocol: 'both',
      upstreamDns: [`127.0.0.1:${upstream.udpPort}`],
    },
    '127.0.0.1',
  );
});

after(async () => {
  await responder.stop();
  await upstream.stop();
});

test('answers the configured records over UDP', async () => {
  const ask = async (name: string, type: 'A' | 'AAAA' | 'TXT') => {
    const q = query(name, type);
    const answer = await udpQuery(responder.udpPort, q);
    assert.ok(answer, `no answer for ${name}`);
    const decoded = decode(answer);
    assert.equal(decoded.id, id);
    return decoded;
  };
  assert.deepEqual((await ask('api.shop', 'A')).answers, ['10.1.1.1']);
  assert.deepEqual((await ask('API.shop', 'A')).answers, ['10.1.1.2'], 'round-robin, case-insensitive');
  assert.deepEqual((await ask('v6.shop', 'AAAA')).answers, ['fd00::1']);
  assert.deepEqual((await ask('alias.shop', 'A')).answers, ['api.shop'], 'a CNAME answers an A query');
  assert.deepEqual((await ask('txt.shop', 'TXT')).answers, ['hello']);
  assert.deepEqual((await ask('deep.sub.shop', 'A')).answers, ['10.5.5.5'], 'parent domain');
  assert.equal((await ask('gone.shop', 'A')).rcode, 'NXDOMAIN');
  assert.equal((await ask('broken.shop', 'A')).rcode, 'SERVFAIL');
  assert.equal(await udpQuery(responder.udpPort, query('slow.shop', 'A'), 300), undefined, 'DROP: no answer');
  assert.deepEqual((await ask('other.example', 'A')).answers, ['10.8.8.8'], 'forwarded upstream');
});

test('answers over TCP too', async () => {
  const q = query('api.shop', 'A');
  const decoded = decode(await queryTcp('127.0.0.1', responder.tcpPort, q));
  assert.equal(decoded.rcode, 'NOERROR');
  assert.equal(decoded.answers.length, 1);
});
