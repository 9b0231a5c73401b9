// One DNS query in, one response out: names in the cluster zone (and the cluster's reverse names) from the
// record index, authoritatively, with the zone's SOA in the authority section of NXDOMAIN and NODATA answers;
// everything else forwarded to the upstreams (SERVFAIL when none answers). ExternalName CNAMEs are followed,
// SRV targets' addresses go in the additional section, and a UDP answer larger than the client takes (512
// bytes, or its EDNS0 size) is truncated with the TC bit so the client asks again over TCP.
import { decode, encode, AUTHORITATIVE_ANSWER, RECURSION_AVAILABLE, RECURSION_DESIRED, TRUNCATED_RESPONSE, type Answer, type DecodedPacket, type OptAnswer, type Packet, type Question } from 'dns-packet';
import { randomInt } from 'node:crypto';
import type { DnsRecord, RecordIndex } from './record-index.ts';
import { canonicalName } from './record-names.ts';
import type { Transport, UpstreamForwarder } from './upstream-forwarder.ts';

const RCODE = { NOERROR: 0, FORMERR: 1, SERVFAIL: 2, NXDOMAIN: 3, NOTIMP: 4 } as const;
type Rcode = keyof typeof RCODE;

/** Without EDNS0 a UDP answer is at most 512 bytes (RFC 1035); with it, what the client says, up to what we offer. */
const CLASSIC_UDP_SIZE = 512;
const EDNS_UDP_SIZE = 4096;
/** How many CNAMEs are followed before the answer is returned as it stands. */
const MAX_CNAME_HOPS = 8;

interface Reply {
  rcode: Rcode;
  authoritative: boolean;
  answers: Answer[];
  authorities: Answer[];
  additionals: Answer[];
}

function isOpt(answer: Answer): answer is OptAnswer {
  return answer.type === 'OPT';
}

export class QueryAnswerer {
  constructor(
    private readonly index: RecordIndex,
    private readonly forwarder: UpstreamForwarder,
  ) {}

  /** The response to a query message; undefined for what deserves none (responses, garbage without a header). */
  async answer(message: Buffer, transport: Transport): Promise<Buffer | undefined> {
    let query: DecodedPacket & { opcode?: string };
    try {
      query = decode(message);
    } catch {
      // A header is enough to say FORMERR to the right id.
      return message.length >= 12 && (message.readUInt16BE(2) & 0x8000) === 0 ? this.encodeReply({ id: message.readUInt16BE(0), flags: message.readUInt16BE(2) }, undefined, transport, { rcode: 'FORMERR', authoritative: false, answers: [], authorities: [], additionals: [] }) : undefined;
    }
    if (query.type === 'response') return undefined;
    const opt = (query.additionals ?? []).find(isOpt);
    const empty = { authoritative: false, answers: [], authorities: [], additionals: [] };
    if (query.opcode !== 'QUERY') return this.encodeReply(query, opt, transport, { rcode: 'NOTIMP', ...empty });
    const question = query.questions?.length === 1 ? query.questions[0] : undefined;
    if (question === undefined) return this.encodeReply(query, opt, transport, { rcode: 'FORMERR', ...empty });
    const lookup = this.index.lookup(question.name, question.type);
    if (lookup.kind === 'elsewhere') {
      return (await this.forwarder.forward(message, transport)) ?? this.encodeReply(query, opt, transport, { rcode: 'SERVFAIL', ...empty });
    }
    return this.encodeReply(query, opt, transport, await this.resolveLocally(question));
  }

  /** The index's answer, with CNAMEs followed (in the zone, or through the upstreams) and SRV targets' addresses. */
  private async resolveLocally(question: Question): Promise<Reply> {
    const reply: Reply = { rcode: 'NOERROR', authoritative: true, answers: [], authorities: [], additionals: [] };
    let name = question.name;
    for (let hop = 0; hop <= MAX_CNAME_HOPS; hop++) {
      const lookup = this.index.lookup(name, question.type);
      if (lookup.kind === 'elsewhere') {
        reply.answers.push(...(await this.forwardedAnswers({ ...question, name })));
        return reply;
      }
      if (lookup.kind !== 'answer') {
        // NXDOMAIN belongs to the last name of the chain; either way the zone's SOA says how long to remember it.
        if (lookup.kind === 'nxdomain') reply.rcode = 'NXDOMAIN';
        reply.authorities.push(this.index.soa());
        return reply;
      }
      // The asked name keeps the client's spelling (and 0x20 case); records below it are canonical.
      reply.answers.push(...lookup.records.map((r) => ({ ...r, name: hop === 0 ? question.name : r.name })));
      const cname = lookup.records.find((r) => r.type === 'CNAME');
      if (cname === undefined || question.type === 'CNAME') break;
      name = cname.data as string;
    }
    reply.additionals.push(...this.targetAddresses(reply.answers));
    return reply;
  }

  private targetAddresses(answers: Answer[]): DnsRecord[] {
    const targets = new Set(answers.flatMap((a) => (a.type === 'SRV' ? [canonicalName(a.data.target)] : [])));
    return [...targets].flatMap((target) => ['A' as const, 'AAAA' as const].flatMap((type) => {
      const lookup = this.index.lookup(target, type);
      return lookup.kind === 'answer' ? lookup.records : [];
    }));
  }

  /** A CNAME's target outside the zone, asked of the upstreams; nothing when they fail (the CNAME still stands). */
  private async forwardedAnswers(question: Question): Promise<Answer[]> {
    const upstreamQuery = encode({ type: 'query', id: randomInt(0, 0x10000), flags: RECURSION_DESIRED, questions: [{ name: question.name, type: question.type, class: 'IN' }] });
    let response = await this.forwarder.forward(upstreamQuery, 'udp');
    if (response !== undefined && decode(response).flag_tc) response = await this.forwarder.forward(upstreamQuery, 'tcp');
    try {
      return response === undefined ? [] : (decode(response).answers ?? []);
    } catch {
      return [];
    }
  }

  private encodeReply(query: Pick<Packet, 'id' | 'flags' | 'questions'>, opt: OptAnswer | undefined, transport: Transport, reply: Reply): Buffer {
    const flags = (query.flags ?? 0) & RECURSION_DESIRED;
    const packet: Packet = {
      type: 'response',
      id: query.id ?? 0,
      flags: flags | RECURSION_AVAILABLE | (reply.authoritative ? AUTHORITATIVE_ANSWER : 0) | RCODE[reply.rcode],
      questions: query.questions ?? [],
      answers: reply.answers,
      authorities: reply.authorities,
      // A client that speaks EDNS0 gets our OPT record back, with the size we accept.
      additionals: [...reply.additionals, ...(opt ? [{ type: 'OPT' as const, name: '.', udpPayloadSize: EDNS_UDP_SIZE, extendedRcode: 0, ednsVersion: 0, flags: 0, flag_do: false, options: [] }] : [])],
    };
    const full = encode(packet);
    const limit = transport === 'tcp' ? 0xffff : opt ? Math.min(Math.max(opt.udpPayloadSize, CLASSIC_UDP_SIZE), EDNS_UDP_SIZE) : CLASSIC_UDP_SIZE;
    if (full.length <= limit) return full;
    // Too big for the client's buffer: the header and question only, with TC, and it retries over TCP.
    return encode({ ...packet, flags: (packet.flags ?? 0) | TRUNCATED_RESPONSE, answers: [], authorities: [], additionals: packet.additionals?.filter(isOpt) ?? [] });
  }
}
