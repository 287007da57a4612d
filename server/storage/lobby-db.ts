/**
 * boardgame.io's Server needs a StorageAPI. Every Lobby route it would use it for is answered by ours
 * first (server/lobby/routes.ts: the reads show only public match data), so this is a read-only stand-in:
 * every write goes through our own routes and the match service, and the writing methods here refuse
 * loudly instead of bypassing them.
 */
import { Async } from 'boardgame.io/internal';
import type { MatchStore } from './types';

export class LobbyReads extends Async {
  constructor(private readonly store: MatchStore) {
    super();
  }
  async connect(): Promise<void> {}
  async fetch(matchID: string, opts: { metadata?: boolean }): Promise<any> {
    if (!opts.metadata) return {};
    const head = await this.store.head(matchID);
    return head ? { metadata: head.metadata } : {};
  }
  listMatches(opts?: Parameters<MatchStore['listMatches']>[0]): Promise<string[]> {
    return this.store.listMatches(opts);
  }
  private refuse(): never {
    throw new Error('boardgame.io tried to write through its own storage path; every write goes through the match service');
  }
  async createMatch(): Promise<void> {
    this.refuse();
  }
  async setState(): Promise<void> {
    this.refuse();
  }
  async setMetadata(): Promise<void> {
    this.refuse();
  }
  async wipe(): Promise<void> {
    this.refuse();
  }
}
