/**
 * The evidence board: Nixon's picture, 7 informant spaces, 29 evidence spaces and 79 threads.
 * RECONSTRUCTED (provenance D, docs/COMPONENTS.md "The board"); coordinates in a 1000×1000 box,
 * y downward, as the Editor sees the board. Adjacency is computed once here, never per move.
 */
import type { Colour, InformantId, SpaceId } from './types';

export type BoardNode =
  | { id: 'NIXON'; kind: 'NIXON'; name: string; x: number; y: number }
  | { id: SpaceId; kind: 'EVIDENCE'; colour: Colour; ring: 'inner' | 'middle' | 'outer'; x: number; y: number }
  | { id: InformantId; kind: 'INFORMANT'; name: string; group: 'insider' | 'outsider'; x: number; y: number };

export const NODES: readonly BoardNode[] = [
  { id: 'NIXON', kind: 'NIXON', name: "Richard Nixon", x: 500, y: 500 },
  { id: 'A1', kind: 'EVIDENCE', colour: 'yellow', ring: 'inner', x: 554, y: 387 },
  { id: 'A2', kind: 'EVIDENCE', colour: 'blue', ring: 'inner', x: 622, y: 472 },
  { id: 'A3', kind: 'EVIDENCE', colour: 'yellow', ring: 'inner', x: 598, y: 578 },
  { id: 'A4', kind: 'EVIDENCE', colour: 'green', ring: 'inner', x: 500, y: 625 },
  { id: 'A5', kind: 'EVIDENCE', colour: 'blue', ring: 'inner', x: 402, y: 578 },
  { id: 'A6', kind: 'EVIDENCE', colour: 'green', ring: 'inner', x: 378, y: 472 },
  { id: 'A7', kind: 'EVIDENCE', colour: 'blue', ring: 'inner', x: 446, y: 387 },
  { id: 'B01', kind: 'EVIDENCE', colour: 'green', ring: 'middle', x: 447, y: 266 },
  { id: 'B02', kind: 'EVIDENCE', colour: 'blue', ring: 'middle', x: 553, y: 266 },
  { id: 'B03', kind: 'EVIDENCE', colour: 'green', ring: 'middle', x: 650, y: 312 },
  { id: 'B04', kind: 'EVIDENCE', colour: 'yellow', ring: 'middle', x: 716, y: 396 },
  { id: 'B05', kind: 'EVIDENCE', colour: 'green', ring: 'middle', x: 740, y: 500 },
  { id: 'B06', kind: 'EVIDENCE', colour: 'blue', ring: 'middle', x: 716, y: 604 },
  { id: 'B07', kind: 'EVIDENCE', colour: 'yellow', ring: 'middle', x: 650, y: 688 },
  { id: 'B08', kind: 'EVIDENCE', colour: 'blue', ring: 'middle', x: 553, y: 734 },
  { id: 'B09', kind: 'EVIDENCE', colour: 'yellow', ring: 'middle', x: 447, y: 734 },
  { id: 'B10', kind: 'EVIDENCE', colour: 'green', ring: 'middle', x: 350, y: 688 },
  { id: 'B11', kind: 'EVIDENCE', colour: 'yellow', ring: 'middle', x: 284, y: 604 },
  { id: 'B12', kind: 'EVIDENCE', colour: 'blue', ring: 'middle', x: 260, y: 500 },
  { id: 'B13', kind: 'EVIDENCE', colour: 'yellow', ring: 'middle', x: 284, y: 396 },
  { id: 'B14', kind: 'EVIDENCE', colour: 'green', ring: 'middle', x: 350, y: 312 },
  { id: 'C1', kind: 'EVIDENCE', colour: 'blue', ring: 'outer', x: 727, y: 234 },
  { id: 'C2', kind: 'EVIDENCE', colour: 'green', ring: 'outer', x: 810, y: 338 },
  { id: 'C3', kind: 'EVIDENCE', colour: 'green', ring: 'outer', x: 709, y: 781 },
  { id: 'C4', kind: 'EVIDENCE', colour: 'yellow', ring: 'outer', x: 589, y: 839 },
  { id: 'C5', kind: 'EVIDENCE', colour: 'green', ring: 'outer', x: 180, y: 642 },
  { id: 'C6', kind: 'EVIDENCE', colour: 'yellow', ring: 'outer', x: 150, y: 511 },
  { id: 'C7', kind: 'EVIDENCE', colour: 'blue', ring: 'outer', x: 190, y: 338 },
  { id: 'C8', kind: 'EVIDENCE', colour: 'yellow', ring: 'outer', x: 273, y: 234 },
  { id: 'I_BALDWIN', kind: 'INFORMANT', name: "Alfred Baldwin", group: 'outsider', x: 144, y: 216 },
  { id: 'I_BUTTERFIELD', kind: 'INFORMANT', name: "Alexander Butterfield", group: 'insider', x: 500, y: 148 },
  { id: 'I_DEAN', kind: 'INFORMANT', name: "John Dean", group: 'insider', x: 843, y: 578 },
  { id: 'I_MCCORD', kind: 'INFORMANT', name: "James McCord", group: 'outsider', x: 56, y: 601 },
  { id: 'I_MMITCHELL', kind: 'INFORMANT', name: "Martha Mitchell", group: 'outsider', x: 697, y: 910 },
  { id: 'I_SLOAN', kind: 'INFORMANT', name: "Hugh Sloan", group: 'outsider', x: 856, y: 216 },
  { id: 'I_WOODS', kind: 'INFORMANT', name: "Rose Mary Woods", group: 'insider', x: 347, y: 817 },];

/** Threads (undirected): the reconstruction's 79 (docs/COMPONENTS.md "The board"). */
export const THREADS: readonly (readonly [string, string])[] = [
  'A1-A2 A1-A7 A1-B01 A1-B02 A1-B03 A1-NIXON A2-A3 A2-B03 A2-B04 A2-B05',
  'A2-NIXON A3-A4 A3-B05 A3-B06 A3-B07 A3-NIXON A4-A5 A4-B07 A4-B08 A4-B09',
  'A4-NIXON A5-A6 A5-B09 A5-B10 A5-B11 A5-NIXON A6-A7 A6-B11 A6-B12 A6-B13',
  'A6-NIXON A7-B01 A7-B13 A7-B14 A7-NIXON B01-B02 B01-B14 B01-I_BUTTERFIELD B02-B03 B02-I_BUTTERFIELD',
  'B03-B04 B03-C1 B04-B05 B04-C1 B04-C2 B05-B06 B05-I_DEAN B06-B07 B06-I_DEAN B07-B08',
  'B07-C3 B08-B09 B08-C3 B08-C4 B09-B10 B09-I_WOODS B10-B11 B10-I_WOODS B11-B12 B11-C5',
  'B12-B13 B12-C5 B12-C6 B13-B14 B13-C7 B14-C7 B14-C8 C1-C2 C1-I_SLOAN C2-I_SLOAN',
  'C3-C4 C3-I_MMITCHELL C4-I_MMITCHELL C5-C6 C5-I_MCCORD C6-I_MCCORD C7-C8 C7-I_BALDWIN C8-I_BALDWIN',]
  .flatMap((row) => row.split(' '))
  .map((e) => e.split('-') as [string, string]);

export type EvidenceSpace = Extract<BoardNode, { kind: 'EVIDENCE' }>;
export type InformantSpace = Extract<BoardNode, { kind: 'INFORMANT' }>;

export const NODE: Readonly<Record<string, BoardNode>> = Object.fromEntries(NODES.map((n) => [n.id, n]));
export const SPACES: readonly EvidenceSpace[] = NODES.filter((n): n is EvidenceSpace => n.kind === 'EVIDENCE');
export const SPACE_IDS: readonly SpaceId[] = SPACES.map((s) => s.id);
export const SPACE_COLOUR: Readonly<Record<SpaceId, Colour>> = Object.fromEntries(SPACES.map((s) => [s.id, s.colour]));
export const INFORMANTS: readonly InformantSpace[] = NODES.filter((n): n is InformantSpace => n.kind === 'INFORMANT');
export const INFORMANT_IDS: readonly InformantId[] = INFORMANTS.map((i) => i.id);

/** Neighbours of every node. */
export const ADJACENT: Readonly<Record<string, readonly string[]>> = (() => {
  const adj: Record<string, string[]> = Object.fromEntries(NODES.map((n) => [n.id, []]));
  for (const [a, b] of THREADS) {
    adj[a].push(b);
    adj[b].push(a);
  }
  return adj;
})();
