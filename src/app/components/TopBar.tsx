import { useRef } from 'react';
import { loadLangOrSay } from '../langLoad';
import { tr, type Lang } from '../i18n/lang';
import { s } from '../i18n/strings';
import { openBuiltin, openFile } from '../load';
import { rs } from '../i18n/runStrings';
import { RunControls } from './RunControls';
import { shareDialog } from './shareDialogLoad';
import { get, set, useApp } from '../store';
import { builtinLabel } from './builtinLabel';
import { useIsStudent } from '../room/roomStore';
import { useLesson } from '../lesson/store';

/** A variant's entry in the scenario menu: `<built-in id>::<variant id>` (ids never hold ':'). */
const VARIANT_SEP = '::';
function variantValue(id: string, variant: string): string {
  return `${id}${VARIANT_SEP}${variant}`;
}

function preloadShare(): void {
  shareDialog.preload().catch(() => undefined);
}

/**
 * First row: title, scenario picker (the open built-in's variants listed under it), open file,
 * share, run controls, language, theme, presenter size.
 */
export function TopBar() {
  const lang = useApp((st) => st.lang);
  const theme = useApp((st) => st.theme);
  const presenter = useApp((st) => st.presenter);
  const showSettings = useApp((st) => st.showSettings);
  // App draws the settings row only outside guided mode: point at it only when it is there.
  const settingsRow = useLesson((st) => st.lesson === null || st.mode !== 'guided') && showSettings;
  const builtins = useApp((st) => st.builtins);
  const scenario = useApp((st) => st.scenario);
  const shareOpen = useApp((st) => st.shareOpen);
  const fileRef = useRef<HTMLInputElement>(null);
  const current = scenario?.id ?? '';
  const open = builtins.find((b) => b.id === current);
  // The open built-in's variants, listed under it (free play; a lesson shows them side by side).
  const choice = useApp((st) => st.variantChoice);
  const variants = choice && choice.builtin === current ? choice : null;
  const value = variants?.current && !variants.edited ? variantValue(current, variants.current) : current;
  const isBuiltin = open !== undefined;
  const customLabel = scenario ? `${tr(scenario.title, lang)} ${s(lang, 'customScenario')}` : '…';
  // Live room: the teacher chooses the lesson for everyone.
  const student = useIsStudent();
  const variantName = (v: { id: string; title?: Parameters<typeof tr>[0] }): string => (v.title ? tr(v.title, lang) : v.id);
  /** The built-in's name, and the variant's where one runs. */
  const shownLabel = (b: (typeof builtins)[number]): string => {
    const v = variants && value !== current ? variants.variants.find((x) => x.id === variants.current) : undefined;
    return v ? `${builtinLabel(b, scenario, lang)} — ${variantName(v)}` : builtinLabel(b, scenario, lang);
  };

  return (
    <div className="bar-row">
      <h1 className="app-title">{s(lang, 'appTitle')}</h1>
      <label className="field scenario-field">
        <span className="field-label">{s(lang, 'scenario')}</span>
        <select
          value={isBuiltin ? value : ''}
          disabled={student}
          // The whole name on hover: the select shows only its start where the bar is narrow (1280 px).
          title={student ? s(lang, 'roomRunChosen') : open ? shownLabel(open) : customLabel}
          data-testid="scenario-select"
          onChange={(e) => {
            const [id, variant] = e.target.value.split(VARIANT_SEP);
            // Another run of the same built-in (a variant, or back to its base) keeps playing if it was.
            const same = id === current ? { autoplay: get().status === 'running' } : {};
            if (id) void openBuiltin(id, variant ? { variant, ...same } : same);
          }}
        >
          {!isBuiltin && <option value="">{customLabel}</option>}
          {builtins.flatMap((b) => [
            <option key={b.id} value={b.id}>
              {builtinLabel(b, scenario, lang)}
            </option>,
            ...(variants && b.id === current
              ? variants.variants.map((v) => (
                  <option key={`${b.id}${VARIANT_SEP}${v.id}`} value={variantValue(b.id, v.id)}>
                    {/* A closed select shows only the chosen option, cut to ~170 px at 1280: the chosen
                        variant first, then its built-in ("PreVote on (Raft's disruptive server)"). */}
                    {variantValue(b.id, v.id) === value
                      ? s(lang, 'variantOfBuiltin', { variant: variantName(v), builtin: builtinLabel(b, scenario, lang) })
                      : `\u00a0\u00a0↳ ${variantName(v)}`}
                  </option>
                ))
              : []),
          ])}
        </select>
      </label>
      <button type="button" onClick={() => set({ indexOpen: true })} title={student ? s(lang, 'roomRunChosen') : s(lang, 'lessonsTitle')} data-testid="open-lessons" disabled={student}>
        {s(lang, 'lessons')}
      </button>
      <button type="button" onClick={() => fileRef.current?.click()} title={s(lang, student ? 'roomRunChosen' : 'openFileTitle')} data-testid="open-file-button" disabled={student}>
        {s(lang, 'openFile')}
      </button>
      <input
        ref={fileRef}
        type="file"
        accept=".json,application/json"
        className="visually-hidden"
        tabIndex={-1}
        aria-label={s(lang, 'openFileTitle')}
        data-testid="open-file"
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = ''; // the same file can be chosen again after fixing it
          if (file) void openFile(file);
        }}
      />
      <button
        type="button"
        onClick={() => set({ shareOpen: !shareOpen })}
        // Its dialog loads on demand: start as the pointer or the focus comes (a failure shows on open).
        onPointerEnter={preloadShare}
        onFocus={preloadShare}
        title={rs(lang, 'shareTitle')}
        disabled={!scenario}
        aria-expanded={shareOpen}
        aria-haspopup="dialog"
        data-testid="share"
      >
        {s(lang, 'share')}
      </button>
      <span className="spacer" />
      <RunControls />
      <span className="spacer" />
      {/* Language, theme, settings and presenter wrap as one group, at the row's right end: at
          1024 px in Chinese "演示模式" alone took a row's left end. */}
      <div className="bar-tools">
        <button
          type="button"
          lang={lang === 'en' ? 'zh' : 'en'}
          onClick={() => void switchLang(lang === 'en' ? 'zh' : 'en')}
          title={s(lang, 'langToggleTitle')}
          aria-label={`${s(lang, 'langToggle')}: ${s(lang, 'langToggleTitle')}`}
          data-testid="lang-toggle"
        >
          {s(lang, 'langToggle')}
        </button>
        <button
          type="button"
          className="compact"
          onClick={() => set({ theme: theme === 'light' ? 'dark' : 'light' })}
          title={s(lang, theme === 'light' ? 'themeToDark' : 'themeToLight')}
          aria-label={s(lang, theme === 'light' ? 'themeToDark' : 'themeToLight')}
        >
          {theme === 'light' ? '☾' : '☀'}
        </button>
        <button
          type="button"
          className="compact"
          aria-expanded={showSettings}
          aria-controls={settingsRow ? 'settings-row' : undefined}
          onClick={() => set({ showSettings: !showSettings })}
          title={s(lang, 'settingsTitle')}
          aria-label={s(lang, 'settingsTitle')}
        >
          ⚙
        </button>
        <button
          type="button"
          aria-pressed={presenter}
          onClick={() => set({ presenter: !presenter, showSettings: presenter })}
          title={s(lang, 'presenterKeyTitle')}
        >
          {s(lang, 'presenter')}
        </button>
      </div>
    </div>
  );
}

/** Switches the interface once the language's catalog is here (a lazy chunk the first time). */
async function switchLang(want: Lang): Promise<void> {
  set({ lang: await loadLangOrSay(want) });
}
