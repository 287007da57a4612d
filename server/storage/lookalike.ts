/**
 * The look-alike key of a username: Unicode TR39's confusable skeleton (NFD, each character replaced by
 * its prototype from Unicode's confusables.txt — the `unhomoglyph` package's table — and NFD again),
 * taken once more after lower-casing, because usernames are one name whatever their case ("AIice" is
 * "Alice" is "alice"). Two usernames with one key look alike ("ɑlice", "aǀice", "aIice" and "alice"): the
 * second is refused at sign-up. Stored in a unique column (wg_accounts.skeleton), never shown: a
 * skeleton is no name ("m" becomes "rn").
 */
import unhomoglyph from 'unhomoglyph';

const skeleton = (s: string) => unhomoglyph(s.normalize('NFD')).normalize('NFD');

export const lookalikeKey = (username: string): string => skeleton(skeleton(username).toLowerCase());
