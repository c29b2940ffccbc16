import type { Lang } from '../i18n/lang';
import type { RefusalReason } from '../../room/refusals';
import { parseAction } from '../../scenario/parseAction';
import { actionProblemText } from '../scenarioProblemText';

/*
 * Apart from the room's strings (strings.ts), which the page's first load reaches: wording an
 * invalid action checks it again, with the action table's schemas, which only a room needs here.
 */

/** A refusal's typed reason in the reader's language; `nodeIds`, the room run's nodes, word an invalid action's problems. */
export function refusalText(r: RefusalReason, lang: Lang, nodeIds: readonly string[] = []): string {
  const zh = lang === 'zh';
  switch (r.code) {
    case 'watching':
      return zh ? '你没有节点：每个节点都已有学生，你在旁观' : 'you have no node: every node has a student, you are watching';
    case 'notYourNode':
      return zh ? `你只能操作自己的节点 ${r.node}，不能操作 ${r.target}` : `you can act only on your own node ${r.node}, not ${r.target}`;
    case 'notYourLink':
      return zh ? `你只能改变自己节点 ${r.node} 的链路，不能改变 ${r.from}–${r.to}` : `you can change only the links of your node ${r.node}, not ${r.from}–${r.to}`;
    case 'teacherOnly':
      return zh ? `只有老师可以执行“${r.action}”` : `only the teacher can ${r.action}`;
    case 'locked':
      return zh ? '老师已锁定操作' : 'the teacher has locked actions';
    case 'staleRun':
      return zh ? '发送后课程已切换，请再试一次' : 'the lesson changed since you acted; try again';
    case 'notMember':
      return zh ? '你还不是本课堂的成员' : 'you are not a member of this room yet';
    case 'tooFast':
      return zh ? `操作太快：每秒最多 ${r.max} 次` : `too many actions: at most ${r.max} a second`;
    case 'runOver':
      return zh ? '本次运行已结束：请老师重新开始（◀◀）' : 'the run is over: the teacher can restart it (◀◀)';
    case 'noLesson':
      return zh ? '还没有开始课程' : 'no lesson is loaded';
    case 'invalid':
      return invalidText(r, lang, nodeIds);
  }
}

/**
 * An invalid action's problems in the reader's language: the page checks the refused action again
 * against its run's nodes (the room's run, the teacher's nodes), which gives the teacher's facts;
 * without the action, or where this page's checker accepts it (another version), the English line.
 */
function invalidText(r: Extract<RefusalReason, { code: 'invalid' }>, lang: Lang, nodeIds: readonly string[]): string {
  if (lang === 'en' || r.action === undefined || nodeIds.length === 0) return r.detail;
  let input: unknown;
  try {
    input = JSON.parse(r.action);
  } catch {
    return r.detail;
  }
  const parsed = parseAction(input, nodeIds);
  return parsed.ok ? r.detail : actionProblemText(lang, parsed.problems);
}
