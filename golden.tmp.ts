import { writeFileSync, readFileSync, existsSync } from 'node:fs';
import { applyMove, legalMoves, newGame, playerView } from './game';
import { botRng } from './bots/rng';
import { samplerFor } from './bots/determinize';
import { think } from './bots/levels';
import { legalMovesFromView } from './client/legal';
const out: unknown[] = [];
for (let seed = 1; seed <= 12; seed++) {
  const rng = botRng(seed * 7);
  const G = newGame({}, rng);
  for (let i = 0; G.winner === null && i < 160; i++) {
    const p = G.prompt!.player;
    const moves = legalMoves(G, p);
    if (i % 11 === 0) {
      for (const viewer of ['0', '1'] as const) {
        const view = structuredClone(playerView(G, viewer));
        out.push({ seed, i, viewer, legal: legalMovesFromView(view, viewer), samples: [1, 2].map((k) => samplerFor(view).sample(botRng(k * 31 + seed))) });
      }
      const d = think(structuredClone(playerView(G, p)), { level: 'easy', seed, deterministic: true });
      out.push({ seed, i, decision: d.move });
    }
    const m = moves[rng.int(moves.length)];
    applyMove(G, p, m.move, m.args[0], rng);
  }
}
const file = '/tmp/golden.json';
const text = JSON.stringify(out);
if (process.argv[2] === 'write' || !existsSync(file)) { writeFileSync(file, text); console.log('written', out.length); }
else console.log(readFileSync(file, 'utf8') === text ? 'SAME' : 'DIFFERENT', out.length);
