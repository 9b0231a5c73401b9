// The DNS responder over real UDP and TCP sockets on loopback: configured records answered (A round-robin,
// AAAA, CNAME, TXT, parent-domain match, NXDOMAIN, SERVFAIL, DROP), other names forwarded to an upstream
// (itself a responder here) and its answer relayed.
import assert from 'node:assert/strict';
import { createSocket } from 'node:dgram';
import { after, before, test } from 'node:test';
import { parseDnsRecords } from '../../../../src/chaos/injector/kinds/dns/dns-records.ts';
import { queryTcp, startDnsResponder } from '../../../../src/chaos/injector/kinds/dns/dns-responder.ts';
import { TYPE } from '../../../../src/chaos/injector/kinds/dns/dns-wire.ts';

let id = 0;
function query(name: string, type: number): Buffer {
  const labels = name.split('.').map((l) => Buffer.concat([Buffer.from([l.length]), Buffer.from(l)]));
  const header = Buffer.alloc(12);
  header.writeUInt16BE(++id, 0);
  header.writeUInt16BE(0x0100, 2);
  header.writeUInt16BE(1, 4);
  const tail = Buffer.alloc(4);
  tail.writeUInt16BE(type, 0);
  tail.writeUInt16BE(1, 2);
  return Buffer.concat([header, ...labels, Buffer.from([0]), tail]);
}

/** rcode and the rdata of each answer (A as dotted quad, others raw hex). */
function decode(answer: Buffer, q: Buffer): { id: number; rcode: number; answers: string[] } {
  const count = answer.readUInt16BE(6);
  let offset = q.length; // header + the echoed question
  const answers: string[] = [];
  for (let i = 0; i < count; i++) {
    const type = answer.readUInt16BE(offset + 2);
    const length = answer.readUInt16BE(offset + 10);
    const data = answer.subarray(offset + 12, offset + 12 + length);
    answers.push(type === TYPE.A ? [...data].join('.') : type === TYPE.TXT ? data.subarray(1).toString() : data.toString('hex'));
    offset += 12 + length;
  }
  return { id: answer.readUInt16BE(0), rcode: answer.readUInt16BE(2) & 0xf, answers };
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
  const ask = async (name: string, type: number) => {
    const q = query(name, type);
    const answer = await udpQuery(responder.udpPort, q);
    assert.ok(answer, `no answer for ${name}`);
    const decoded = decode(answer, q);
    assert.equal(decoded.id, q.readUInt16BE(0));
    return decoded;
  };
  assert.deepEqual((await ask('api.shop', TYPE.A)).answers, ['10.1.1.1']);
  assert.deepEqual((await ask('API.shop', TYPE.A)).answers, ['10.1.1.2'], 'round-robin, case-insensitive');
  assert.deepEqual((await ask('v6.shop', TYPE.AAAA)).answers, ['fd000000000000000000000000000001']);
  assert.deepEqual((await ask('alias.shop', TYPE.A)).answers, ['036170690473686f7000'], 'a CNAME answers an A query');
  assert.deepEqual((await ask('txt.shop', TYPE.TXT)).answers, ['hello']);
  assert.deepEqual((await ask('deep.sub.shop', TYPE.A)).answers, ['10.5.5.5'], 'parent domain');
  assert.equal((await ask('gone.shop', TYPE.A)).rcode, 3);
  assert.equal((await ask('broken.shop', TYPE.A)).rcode, 2);
  assert.equal(await udpQuery(responder.udpPort, query('slow.shop', TYPE.A), 300), undefined, 'DROP: no answer');
  assert.deepEqual((await ask('other.example', TYPE.A)).answers, ['10.8.8.8'], 'forwarded upstream');
});

test('answers over TCP too', async () => {
  const q = query('api.shop', TYPE.A);
  const decoded = decode(await queryTcp('127.0.0.1', responder.tcpPort, q), q);
  assert.equal(decoded.rcode, 0);
  assert.equal(decoded.answers.length, 1);
});
