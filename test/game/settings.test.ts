/**
 * Match settings beside the rules (setupData.clock, abandonMinutes, hints): checked with an error that
 * names the field, kept out of the rules' G.options, and given their defaults (no clock, no hand-over, no
 * hints). The server's and the client's behaviour with them is tested where they act.
 */
import { describe, expect, it } from 'vitest';
import { newGame, settingsFrom, validateSetupData, Watergate } from '../../game/index';
import { seeded } from '../helpers/rng';

describe('match settings', () => {
  it('a clock, a hand-over time and hints are accepted within their limits', () => {
    expect(validateSetupData({ clock: { initialSeconds: 600, incrementSeconds: 10, onTimeout: 'lose' } })).toBeUndefined();
    expect(validateSetupData({ clock: { initialSeconds: 86_400, incrementSeconds: 14_400, onTimeout: 'bot' }, abandonMinutes: 30 })).toBeUndefined();
    expect(validateSetupData({ clock: { initialSeconds: 3 } })).toBeUndefined();
    expect(validateSetupData({ hints: true, jokerFallback: 'rulebook2019' })).toBeUndefined();
    for (const takeBacks of ['off', 'consent', 'free']) expect(validateSetupData({ takeBacks })).toBeUndefined();
  });

  it.each([
    [{ clock: 5 }, /^clock must be an object/],
    [{ clock: { initialSeconds: 0 } }, /^clock\.initialSeconds must be a whole number/],
    [{ clock: { initialSeconds: 1.5 } }, /^clock\.initialSeconds/],
    [{ clock: { initialSeconds: 31 * 86_400 } }, /^clock\.initialSeconds/],
    [{ clock: { initialSeconds: 60, incrementSeconds: -1 } }, /^clock\.incrementSeconds/],
    [{ clock: { initialSeconds: 60, onTimeout: 'draw' } }, /^clock\.onTimeout must be "lose" or "bot"/],
    [{ clock: { initialSeconds: 60, extra: 1 } }, /^unknown clock field "extra"/],
    [{ abandonMinutes: 0 }, /^abandonMinutes must be a whole number of minutes/],
    [{ abandonMinutes: '5' }, /^abandonMinutes/],
    [{ hints: 'yes' }, /^hints must be true or false/],
    [{ hints: true, clock: { initialSeconds: 60 } }, /^hints are offered only in untimed matches/],
    [{ takeBacks: 'sometimes' }, /^takeBacks must be "off", "consent" or "free"/],
    [{ takeBacks: true }, /^takeBacks must be/],
  ])('refuses %j, naming the field', (data, why) => {
    expect(validateSetupData(data)).toMatch(why);
    expect(Watergate.validateSetupData!(data as never, 2)).toMatch(why);
  });

  it('the rules never see the settings; defaults are no clock, no hand-over, no hints', () => {
    const G = newGame({ clock: { initialSeconds: 60, incrementSeconds: 5, onTimeout: 'bot' }, abandonMinutes: 5, hints: false, pinImpossible: 'removeFromGame' }, seeded(1));
    expect(G.options).toEqual({ jokerFallback: 'errata2023', pinImpossible: 'removeFromGame' });
    expect(settingsFrom(undefined)).toEqual({ clock: null, abandonMinutes: null, hints: false, takeBacks: null });
    expect(settingsFrom({ clock: { initialSeconds: 3 } as never })).toEqual({ clock: { initialSeconds: 3, incrementSeconds: 0, onTimeout: 'lose' }, abandonMinutes: null, hints: false, takeBacks: null });
    expect(settingsFrom({ takeBacks: 'off' })).toMatchObject({ takeBacks: 'off' });
    expect(newGame({ takeBacks: 'free' }, seeded(1)).options).toEqual({ jokerFallback: 'errata2023', pinImpossible: 'returnToBag' });
  });
});
