/**
 * The arena against a running server (`--server URL --token t1,t2,…`, one bot account's token per
 * engine, in the order of `--bots`): each game is a match made through the Lobby's create route, each
 * seat taken by its engine's account with its token and played through the HTTP bot API by the bot kit
 * (tools/bot/kit.ts), `threads` games at a time in this process. The server deals with its own seeds,
 * so games cannot be paired: `seed` in the records is the match id.
 */
import { engine } from '../../bots/arena';
import { join, playGame } from '../bot/kit';
import type { GameRecord, GameTask } from './stats';

export async function playOnServer(server: string, tokens: Record<string, string>, task: GameTask): Promise<GameRecord> {
  const t0 = performance.now();
  const made = await fetch(`${server}/games/watergate/create`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ numPlayers: 2 }) });
  const body = (await made.json().catch(() => ({}))) as { matchID?: string };
  if (made.status !== 200 || !body.matchID) throw new Error(`the server refused to create a match: ${made.status}${made.status === 429 ? ' (its limit on new matches per address)' : ''}`);
  const matchID = body.matchID;
  const seats = (['0', '1'] as const).map((s) => ({ seat: s, name: task.seats[s] }));
  const kits = await Promise.all(seats.map(async ({ seat, name }) => ({ seat, o: { server, token: tokens[name], decide: await engine(name, `${matchID}/${seat}`) } })));
  for (const { seat, o } of kits) {
    const joined = await join(o, matchID, seat);
    if (joined !== 200) throw new Error(`${task.seats[seat]} could not take seat ${seat} of ${matchID}: ${joined}`);
  }
  const [status] = await Promise.all(kits.map(({ o }) => playGame(o, matchID)));
  const winner = status?.winner ?? null;
  return { ...task, seed: matchID, winner, winnerBot: winner === null ? null : task.seats[winner], reason: status?.reason ?? null, moves: -1, rounds: -1, ms: Math.round(performance.now() - t0) };
}
