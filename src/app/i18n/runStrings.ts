import type { Lang } from './lang';

/**
 * Strings of sharing, exporting, forking and the context menu, in English and Chinese. Kept apart
 * from strings.ts so that the run-sharing features carry their own words; same `{placeholder}` rule.
 */
const en = {
  shareTitle: 'Share this run: a link, a moment, or every file of it',
  shareDialog: 'Share this run',
  shareRunLink: 'Link to this run (its scenario and your actions: {n})',
  shareRunLinkNone: 'Link to this run (its scenario; you have not acted yet)',
  shareMoment: 'Share this moment: open at t = {t} s',
  copy: 'Copy',
  copied: 'Copied',
  copyFailed: 'Select the link and copy it by hand',
  linkLength: '{n} characters',
  exportRun: 'Export run (.zip)',
  exportTitle: 'Download the run: scenario with your actions, event log (JSONL), samples (CSV), every view as SVG and PNG',
  exporting: 'Exporting…',
  exported: 'Exported {file}',
  exportFailed: 'Export failed: {cause}',
  close: 'Close',
  forking: 'Forking at t = {t} s: replaying the run up to there…',
  forked: 'New branch from t = {t} s; the previous run is kept (B returns to it)',
  forkFailed: 'Could not fork the run at t = {t} s: {cause}',
  forkDiverged: 'The replayed prefix differs from the run it forks (a determinism bug): {cause}',
  branches: 'Branches',
  branchLabel: 'run {n}',
  branchForkedAt: 'run {n} (forked at {t} s)',
  branchFrom: 'run {n}, from run {parent} at {t} s',
  branchBack: 'Back to the previous branch (B)',
  branchMark: 'branch',
  menuFor: 'Actions on {target}',
  atAfterEnd: 'at: {at} is after the end of the run ({end} ms); the cursor stays live',
};

export type RunStringKey = keyof typeof en;

const zh: Record<RunStringKey, string> = {
  shareTitle: '分享这次运行：一个链接、一个时刻，或它的全部文件',
  shareDialog: '分享这次运行',
  shareRunLink: '这次运行的链接（场景和你的操作：{n} 个）',
  shareRunLinkNone: '这次运行的链接（场景；你还没有操作）',
  shareMoment: '分享这一时刻：打开时定位到 t = {t} 秒',
  copy: '复制',
  copied: '已复制',
  copyFailed: '请选中链接手动复制',
  linkLength: '{n} 个字符',
  exportRun: '导出运行（.zip）',
  exportTitle: '下载这次运行：含你的操作的场景、事件日志（JSONL）、采样（CSV）、每个视图的 SVG 和 PNG',
  exporting: '正在导出…',
  exported: '已导出 {file}',
  exportFailed: '导出失败：{cause}',
  close: '关闭',
  forking: '在 t = {t} 秒处分叉：正在重放到该时刻…',
  forked: '已从 t = {t} 秒开出新分支；原来的运行保留（按 B 返回）',
  forkFailed: '无法在 t = {t} 秒处分叉：{cause}',
  forkDiverged: '重放的前缀与被分叉的运行不一致（确定性缺陷）：{cause}',
  branches: '分支',
  branchLabel: '运行 {n}',
  branchForkedAt: '运行 {n}（在 {t} 秒处分叉）',
  branchFrom: '运行 {n}，从运行 {parent} 的 {t} 秒处分出',
  branchBack: '返回上一个分支（B）',
  branchMark: '分支',
  menuFor: '{target} 的操作',
  atAfterEnd: 'at：{at} 晚于运行结束时间（{end} 毫秒）；游标保持实时',
};

const tables: Record<Lang, Record<RunStringKey, string>> = { en, zh };

export function rs(lang: Lang, key: RunStringKey, vars?: Record<string, string | number>): string {
  const text = tables[lang][key];
  if (!vars) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}

export function runKeysOf(lang: Lang): string[] {
  return Object.keys(tables[lang]);
}
