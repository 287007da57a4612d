/** The seasons API (/api/seasons, protocol/seasons.ts) of the server this page came from. */
import type { SeasonList, SeasonView } from '../../protocol/seasons';
import { call } from '../account/api';

export const listSeasons = () => call<SeasonList>('/api/seasons');
export const getSeason = (id: string) => call<SeasonView>(`/api/seasons/${encodeURIComponent(id)}`);
