/**
 * boardgame.io 0.50's client drops a patch made on a state it does not hold and does not ask again
 * (client.js: `if (prevStateID !== currentStateID) break;`): a page that missed an update — around a
 * reconnection, say — would then stay behind until the next full update. Here a patch from ahead of
 * this client's state asks the server for a fresh sync instead. Used by the browser's GameClient and by
 * the tests' socket players, so both behave alike.
 */
type Socketed = { getState(): { _stateID: number } | null };
type Transport = { socket?: { on(e: string, f: (...a: never[]) => void): void; off(e: string, f: (...a: never[]) => void): void } | null; requestSync?: () => void };

export function resyncWhenBehind(client: Socketed): () => void {
  const transport = (client as unknown as { transport?: Transport }).transport;
  const socket = transport?.socket;
  if (!socket || !transport?.requestSync) return () => undefined;
  const onPatch = (_matchID: string, prevStateID: number) => {
    const s = client.getState();
    if (s && prevStateID > s._stateID) transport.requestSync!();
  };
  socket.on('patch', onPatch as never);
  return () => socket.off('patch', onPatch as never);
}
