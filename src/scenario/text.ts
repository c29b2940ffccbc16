import { z } from 'zod/mini';
import { ruleIssue } from './problems';

/**
 * A text the scenario author writes in every interface language: `en` and `zh` are required (both
 * ship complete); a further language is one more key (`"ja": "…"`, a BCP 47 tag) that passes
 * through to the app, which shows it once that language has an interface catalog. A key that is
 * not a language tag ("EN", "zh_cn", a typo) is refused, naming the key.
 */
const langTag = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

export function localizedText(value: z.ZodMiniString<string>) {
  return z.catchall(z.object({ en: value, zh: value }), value).check(
    z.superRefine((t, ctx) => {
      for (const k of Object.keys(t))
        if (!langTag.test(k)) ctx.addIssue({ code: 'custom', path: [k], ...ruleIssue({ kind: 'langTag', key: k }) });
    }),
  );
}
