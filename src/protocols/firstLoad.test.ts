import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { closure, jsonImports, packageImports, resolveSpec } from '../../scripts/sourceGraph.mjs';

/**
 * Issue 9: the page's first load carries no protocol implementation; each strategy (and the
 * coordination service) loads when a run needs it (factory.ts, coord/create.ts). This follows the
 * source's static imports — what the bundler must put before the page runs — from the app's entry
 * and from every dynamic import of those two loaders, and checks the two sets share only light
 * modules. A value import of an implementation from the app, the engine or the registry fails it.
 */

const src = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const rel = (f: string): string => relative(src, f).replaceAll('\\', '/');

/** The modules a loader imports on demand. */
function dynamicTargets(file: string): string[] {
  const code = readFileSync(file, 'utf8');
  return [...code.matchAll(/import\(\s*['"](\.[^'"]+)['"]\s*\)/g)].map((m) => resolveSpec(file, m[1])!).filter(Boolean);
}

const loaders = [join(src, 'protocols/factory.ts'), join(src, 'protocols/coord/create.ts')];

/**
 * Modules both sides import, on purpose: types-and-constants modules and small pure helpers the
 * validator and the engine need (`notes.ts` note names, `wire.ts` which strategies carry updates,
 * `coord/api.ts` the client timer tag, the knobs, the registry's facts).
 */
const shared = new Set([
  'protocols/registry.ts',
  'protocols/kafka/durable.ts',
  'protocols/coord/readMode.ts',
  'protocols/notes.ts',
  'protocols/wire.ts',
  'protocols/coord/api.ts',
  'protocols/coord/config.ts',
  'protocols/aggregationRules.ts',
  'protocols/psAsyncKnobs.ts',
  'protocols/allreduceKnobs.ts',
  'protocols/psSyncKnobs.ts',
  'protocols/sspKnobs.ts',
  'protocols/degradeKnobs.ts',
  'protocols/rsmClientKnobs.ts',
  'protocols/raft/knobs.ts',
  'protocols/kafka/knobs.ts',
  'protocols/paxos/knobs.ts',
  'protocols/twopc/knobs.ts',
]);

/**
 * The "WHAT YOU SEE" texts (app/explain): one module per strategy, loaded with the run
 * (explain/index.ts `loadExplain`). The page's first load keeps the folder's light parts only.
 */
const explainLoader = join(src, 'app/explain/index.ts');
const explainFirstLoad = new Set(['app/explain/index.ts', 'app/explain/state.ts', 'app/explain/common.ts', 'app/explain/generic.ts']);

/**
 * Other code a scenario page loads only where it is used, each through its loader's dynamic
 * import: the modules (and packages) listed must stay out of the first load, so a static import
 * of one from the app, the engine or the registry fails here.
 */
const onDemand: Array<{ what: string; loader: string; targets: string[]; modules: string[]; packages?: string[] }> = [
  {
    what: 'the security code (a security block, a tamper, a Byzantine worker)',
    loader: 'engine/security/load.ts',
    targets: ['engine/security/securityCode.ts'],
    modules: ['engine/security/securityCode.ts', 'engine/security/layer.ts', 'engine/security/channel.ts', 'engine/security/mitm.ts', 'engine/security/encoding.ts', 'engine/security/byzantine.ts'],
    packages: ['@noble/hashes/hmac.js', '@noble/hashes/hkdf.js'],
  },
  {
    what: 'the servers panel (runs with consensus servers, brokers or a coordination service)',
    loader: 'app/views/serverStatesLoad.ts',
    targets: ['app/views/ServerStates.tsx'],
    modules: ['app/views/ServerStates.tsx'],
  },
  {
    what: 'the node and link context menu (drawn when it opens; opening it is in the first load)',
    loader: 'app/components/contextMenuOpen.ts',
    targets: ['app/components/ContextMenu.tsx'],
    modules: ['app/components/ContextMenu.tsx'],
  },
  {
    what: 'the share dialog and its run link',
    loader: 'app/components/shareDialogLoad.ts',
    targets: ['app/components/ShareDialog.tsx'],
    modules: ['app/components/ShareDialog.tsx', 'app/share.ts'],
  },
  {
    what: "the wording of a check's problems and of the engine's refusals (said when there is one)",
    loader: 'app/problemTextLoad.ts',
    targets: ['app/problemText.ts'],
    modules: ['app/problemText.ts', 'app/scenarioProblemText.ts', 'app/knobProblemText.ts', 'app/actionRefusalText.ts', 'app/urlProblemText.ts', 'scenario/problems.ts', 'scenario/nodes.ts'],
  },
  {
    what: 'the branch bar and the forking code (with the first fork)',
    loader: 'app/components/branchBarLoad.ts',
    targets: ['app/components/BranchBar.tsx', 'app/branches.ts'],
    modules: ['app/components/BranchBar.tsx', 'app/branches.ts'],
  },
  {
    what: "the English words of the consensus protocols' notes (with a run that has one)",
    loader: 'app/words/noteWords.ts',
    targets: ['app/words/noteWords.consensus.en.ts'],
    modules: ['app/words/noteWords.consensus.en.ts'],
  },
  {
    what: 'the linearizability tab (its panel and the checker models)',
    loader: 'app/components/ChecksPanel.tsx',
    targets: ['app/LinearizabilityPanel.tsx'],
    modules: ['app/LinearizabilityPanel.tsx', 'check/models.ts'],
  },
];

describe('first load (issue 9)', () => {
  const targets = loaders.flatMap(dynamicTargets);
  const firstLoad = closure([join(src, 'main.tsx')]);
  const implementations = closure(targets);

  it('every strategy and both coordination services load on demand', () => {
    expect(targets.map(rel).sort()).toEqual(
      ['allreduce', 'coord/etcd', 'coord/zookeeper', 'degrade', 'kafka/index', 'paxos/paxosPs', 'psAsync', 'psAsyncRmw', 'psSync', 'raft/raftPs', 'ssp', 'twopc/twoPcPs'].map((f) => `protocols/${f}.ts`).sort(),
    );
  });

  it("the app's entry reaches the registry and the engine's client", () => {
    // Guards the walk itself: if it stopped following imports, the next tests would pass for nothing.
    for (const f of ['protocols/registry.ts', 'engine/remote/client.ts', 'engine/index/runIndex.ts', 'app/explain/index.ts', 'app/explain/state.ts', 'app/components/StrategyControls.tsx', 'app/act.ts']) expect(firstLoad.has(join(src, f)), f).toBe(true);
  });

  it("the schemas stay in the engine's worker: the page's first load reaches no zod and no validator (app/checks)", () => {
    const worker = closure([join(src, 'workers/engineHost.ts')]);
    const schemas = ['app/checks/table.ts', 'scenario/validate.ts', 'scenario/schema.ts', 'scenario/parseAction.ts', 'scenario/actionSchemas.ts', 'scenario/issues.ts', 'protocols/index.ts', 'app/knobs.ts', 'app/scenarioEdit.ts', 'app/strategySwitch.ts', 'scenario/loader.ts'];
    for (const f of schemas) {
      expect(worker.has(join(src, f)), f).toBe(true);
      expect(firstLoad.has(join(src, f)), f).toBe(false);
    }
    const packages = new Set([...firstLoad].flatMap(packageImports));
    expect([...packages].filter((p) => p.startsWith('zod'))).toEqual([]);
    expect([...worker].flatMap(packageImports)).toContain('zod/mini');
  });

  it("the engine runs in its worker: the page's first load reaches neither it nor the training workers' pool", () => {
    const worker = closure([join(src, 'workers/engineHost.ts')]);
    for (const f of ['engine/simulation.ts', 'engine/eventLoop.ts', 'engine/runSetup.ts', 'protocols/factory.ts', 'workers/pool.ts', 'sim/history.ts']) {
      expect(worker.has(join(src, f)), f).toBe(true);
      expect(firstLoad.has(join(src, f)), f).toBe(false);
    }
  });

  it('reaches no implementation module', () => {
    const both = [...implementations].filter((f) => firstLoad.has(f)).map(rel);
    // Outside src/protocols both sides share the simulator's helpers (sim/vectors, sim/network …).
    expect(both.filter((f) => f.startsWith('protocols/') && !shared.has(f)).sort()).toEqual([]);
    for (const f of targets) expect(firstLoad.has(f), rel(f)).toBe(false);
  });

  it('every strategy\'s explanation loads on demand, and the first load reaches none of them', () => {
    const texts = dynamicTargets(explainLoader);
    expect(texts.map(rel).sort()).toEqual(
      // security: the attack sentence, loaded with the engine's security code.
      ['allreduce', 'coordination', 'degrade', 'kafka', 'paxos', 'psAsync', 'psSync', 'raft', 'security', 'ssp', 'twoPc'].map((f) => `app/explain/${f}.ts`).sort(),
    );
    for (const f of texts) expect(firstLoad.has(f), rel(f)).toBe(false);
    // Nor a module of the folder outside its light core (a helper one of them moved into).
    expect([...firstLoad].map(rel).filter((f) => f.startsWith('app/explain/') && !explainFirstLoad.has(f))).toEqual([]);
  });

  it("a language's sentence tables load with its catalog, and an English page reaches none of them", () => {
    // app/words/<lang>.ts gathers a language's tables (the <module>.<lang>.ts files); i18n/catalog.ts loads it with <lang>.json.
    const catalog = join(src, 'app/i18n/catalog.ts');
    expect(dynamicTargets(catalog).map(rel)).toContain('app/words/zh.ts');
    const words = join(src, 'app/words');
    const tables = readdirSync(words).filter((f) => /^(\w+\.)?zh\.ts$/.test(f)).map((f) => join(words, f));
    expect(tables.map(rel)).toEqual(expect.arrayContaining(['app/words/noteWords.zh.ts', 'app/words/nodeWords.zh.ts', 'app/words/serverWords.zh.ts', 'app/words/checkWords.zh.ts']));
    for (const f of tables) expect(firstLoad.has(f), rel(f)).toBe(false);
  });

  it("the scenario-hash codec, the JSON error scanner and an edit's notes load where a link carries a scenario, a file is broken or an edit left something out", () => {
    for (const f of ['scenario/hashCodec.ts', 'scenario/json.ts', 'app/editNotes.ts']) expect(firstLoad.has(join(src, f)), f).toBe(false);
    expect(dynamicTargets(join(src, 'app/load.ts')).map(rel)).toContain('scenario/hashCodec.ts');
    expect(dynamicTargets(join(src, 'scenario/builtinFetch.ts')).map(rel)).toEqual(['scenario/json.ts']);
  });

  it("the English texts of the parts that load on demand come with them, and the first load reaches none", () => {
    // Each part hands its namespace to the catalog as it loads (catalog.ts addEnglish).
    const owners = { lesson: 'app/i18n/lessonStrings.ts', room: 'app/room/strings.ts', lin: 'app/LinearizabilityPanel.tsx', fashion: 'app/views/FashionTile.tsx' };
    const json = new Set([...firstLoad].flatMap(jsonImports).map(rel));
    expect(json).toContain('app/i18n/locales/en.json');
    for (const [ns, owner] of Object.entries(owners)) {
      expect(jsonImports(join(src, owner)).map(rel), owner).toContain(`app/i18n/locales/en.${ns}.json`);
      expect(json.has(`app/i18n/locales/en.${ns}.json`), ns).toBe(false);
      expect(firstLoad.has(join(src, owner)), owner).toBe(false);
    }
  });

  for (const d of onDemand) {
    it(`${d.what} loads on demand, and the first load reaches none of it`, () => {
      expect([...new Set(dynamicTargets(join(src, d.loader)).map(rel))].sort()).toEqual([...d.targets].sort());
      expect(firstLoad.has(join(src, d.loader)), d.loader).toBe(true);
      for (const f of d.modules) expect(firstLoad.has(join(src, f)), f).toBe(false);
      const packages = new Set([...firstLoad].flatMap(packageImports));
      for (const p of d.packages ?? []) expect(packages.has(p), p).toBe(false);
    });
  }
});
