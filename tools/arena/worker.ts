/** A worker thread of the arena (main.ts, through Piscina): plays one game per task, the engines shown only their seat's view. */
import { engine, playDeal } from '../../bots/arena';
import type { GameRecord, GameTask } from './stats';

export default async function playTask(task: GameTask): Promise<GameRecord> {
  const t0 = performance.now();
  const seats = { '0': await engine(task.seats['0'], `${task.seed}/0`), '1': await engine(task.seats['1'], `${task.seed}/1`) };
  const r = await playDeal(task.seed, seats);
  return { ...task, winner: r.winner, winnerBot: r.winner === null ? null : task.seats[r.winner], reason: r.reason, moves: r.moves, rounds: r.rounds, ms: Math.round(performance.now() - t0) };
}
