import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { lessonKeysOf, ls, type LessonStringKey } from '../i18n/lessonStrings';
import { validateScenario } from '../../scenario/validate';
import { catalog, lessonByNumber, paths } from './curriculum';

describe('the curriculum map', () => {
  it('fourteen lessons, numbered in order, prerequisites earlier in the list', () => {
    expect(catalog.map((l) => l.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]);
    expect(new Set(catalog.map((l) => l.id)).size).toBe(14);
    catalog.forEach((l, i) => {
      for (const p of l.prerequisites) expect(catalog.findIndex((x) => x.id === p), `${l.id} needs ${p}`).toBeLessThan(i);
    });
  });

  it('three lecture paths and the interview sprint, each over known lessons with its prerequisites walked first where the path has them', () => {
    expect(paths.map((p) => p.audience)).toEqual(['class', 'class', 'class', 'alone']);
    const sprint = paths.find((p) => p.id === 'sprint')!;
    // The sprint is L14's minimum path, then L14.
    expect(sprint.lessons.map((n) => lessonByNumber(n)!.id)).toEqual([...lessonByNumber(14)!.prerequisites, 'interview-consistency-answer']);
    for (const p of paths) {
      for (const n of p.lessons) expect(lessonByNumber(n), `${p.id}: L${n}`).toBeDefined();
      expect(p.minutes).toBeGreaterThanOrEqual(p.lessons.reduce((m, n) => m + lessonByNumber(n)!.minutes, 0) - 5);
    }
  });

  it('a shipped lesson agrees with the map (number, id, prerequisites)', () => {
    const ids: string[] = JSON.parse(readFileSync('public/scenarios/index.json', 'utf8'));
    for (const id of ids) {
      const r = validateScenario(JSON.parse(readFileSync(`public/scenarios/${id}.json`, 'utf8')));
      if (!r.ok || !r.scenario.lesson) continue;
      const row = lessonByNumber(r.scenario.lesson.number);
      expect(row?.id, `${id}: lesson.number ${r.scenario.lesson.number}`).toBe(id);
      expect(r.scenario.lesson.prerequisites.filter((p) => !catalog.some((l) => l.id === p))).toEqual([]);
    }
  });
});

describe('lesson strings', () => {
  it('English and Chinese have the same keys, none empty', () => {
    expect(lessonKeysOf('zh').sort()).toEqual(lessonKeysOf('en').sort());
    for (const lang of ['en', 'zh'] as const) for (const k of lessonKeysOf(lang)) expect(ls(lang, k as LessonStringKey)).not.toBe('');
  });

  it('no English word on a Chinese screen but names kept in Latin script', () => {
    const kept = new Set(['CAP', 'PACELC', 'BSP', 'ASP', 'SSP', 'Paxos', 'Raft', 'Kafka', 'etcd', 'ZooKeeper', 'HMAC', 'acks', 'n/a', 'Shift', 'R', 'D', 'F', 'G', 'P']);
    const bad = lessonKeysOf('zh').filter((k) => {
      const text = ls('zh', k as LessonStringKey).replace(/\{\w+\}/g, ' ').replace(/n\/a/g, ' ');
      return (text.match(/[A-Za-z][A-Za-z-]*/g) ?? []).some((w) => !kept.has(w));
    });
    expect(bad).toEqual([]);
  });
});
