/**
 * socket.io's own packet parser, minus one walk: before encoding each event, socket.io looks through the
 * whole payload for binary buffers (`hasBinary`), about a tenth of this server's time per move with
 * Watergate's states (docs/LOAD.md). Our events never carry binary data, so they are encoded as JSON
 * text directly — the same bytes on the wire. The parser is the one of the socket.io server in use
 * (resolved from socket.io itself), so nothing else changes; incoming packets are decoded as before.
 */
import { createRequire } from 'node:module';

type Packet = { type: number };
interface ParserModule {
  Encoder: new () => { encodeAsString(p: Packet): string; encode(p: Packet): unknown[] };
  Decoder: unknown;
  PacketType: { EVENT: number; ACK: number };
}

const fromSocketIO = createRequire(createRequire(import.meta.url).resolve('socket.io'));
const base = fromSocketIO('socket.io-parser') as ParserModule;

class TextEncoder extends base.Encoder {
  encode(p: Packet): unknown[] {
    return [this.encodeAsString(p)];
  }
}

export const textOnlyParser = { ...base, Encoder: TextEncoder };
