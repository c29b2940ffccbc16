import { describe, expect, it } from 'vitest';
import { parseLoadArgs } from './args';

describe('classroom:load arguments', () => {
  it('takes --students and --actions, each a whole number from 1 to 64', () => {
    expect(parseLoadArgs([])).toEqual({ students: 40, actionsEach: 4 });
    expect(parseLoadArgs(['--students', '8', '--actions', '2'])).toEqual({ students: 8, actionsEach: 2 });
    expect(parseLoadArgs(['--students', '65'])).toEqual({ error: '--students: "65" is not a whole number from 1 to 64' });
    expect(parseLoadArgs(['--actions'])).toEqual({ error: '--actions: "" is not a whole number from 1 to 64' });
    expect(parseLoadArgs(['-h'])).toEqual({ help: true });
  });

  it('refuses what it does not take, naming the one probably meant (it ran 40 students for --studnets 5)', () => {
    expect(parseLoadArgs(['--studnets', '5'])).toEqual({ error: 'unknown option "--studnets" (did you mean --students?)' });
    expect(parseLoadArgs(['5'])).toEqual({ error: 'unexpected argument "5"' });
  });
});
