import type { Lang } from '../i18n/lang';
import type { RefusalReason } from '../../room/refusals';

/** The live room's interface strings, EN and 中文 (placeholders `{name}`). */
const en = {
  teacher: 'teacher',
  student: 'student',
  watching: 'watching',
  liveRoom: 'Live room',
  roomCode: 'Room code',
  joinTitle: 'Join the class',
  joinHow: 'Scan the code or open the link on a phone or laptop on the same network.',
  joinUrl: 'Join URL',
  showJoin: 'QR',
  showJoinTitle: 'Show the join code large, for the projector',
  hide: 'Hide',
  startClass: 'Start',
  members: 'In the room',
  nobodyYet: 'Nobody has joined yet.',
  online: 'online',
  offline: 'offline: the node runs as scripted',
  lock: 'Lock actions',
  unlock: 'Unlock actions',
  lockTitle: 'While locked, students cannot act; you still can',
  locked: 'Actions are locked by the teacher',
  exportRun: 'Export run',
  exportTitle: 'Download the room’s run as a scenario file (every action marked by who did it); it replays to the same hash',
  activity: 'Who did what',
  activityTitle: 'Every student’s actions and when they applied',
  noActivity: 'No actions yet.',
  refused: 'refused',
  asked: 'asked at {t}',
  yourName: 'Your name',
  namePlaceholder: 'e.g. Ana',
  joinButton: 'Join',
  joinRoom: 'Join room {code}',
  nameHelp: 'Your name is shown next to your node on every screen in the room.',
  yourNode: 'Your node: {node}. You can crash, restart or slow it and cut or restore its links.',
  noNode: 'Every node has a student: you are watching.',
  connecting: 'Connecting to the room…',
  disconnected: 'Connection lost; reconnecting…',
  teacherAway: 'The teacher’s page is not connected: the run waits.',
  waitingLesson: 'Waiting for the teacher to start a lesson…',
  sent: 'Sent to the teacher: {action}',
  refusedBy: 'The teacher’s device refused your action: {reason}',
  cannotAct: 'You cannot do that: {reason}',
  noRoom: 'There is no room {code} on this server. Ask your teacher for the join link.',
  badKey: 'This teacher link does not hold the room’s key. Open the teacher URL that `npm run classroom` printed.',
  serverGone: 'The room server cannot be reached ({cause}). Is `npm run classroom` still running?',
  resync: 'Your device replayed the run to stay in step with the room.',
  runN: 'run {n}',
} as const;

export type RoomStringKey = keyof typeof en;

const zh: Record<RoomStringKey, string> = {
  teacher: '老师',
  student: '学生',
  watching: '旁观',
  liveRoom: '课堂',
  roomCode: '房间码',
  joinTitle: '加入课堂',
  joinHow: '在同一网络中的手机或电脑上扫描二维码，或打开链接。',
  joinUrl: '加入链接',
  showJoin: '二维码',
  showJoinTitle: '放大显示加入二维码，便于投影',
  hide: '隐藏',
  startClass: '开始',
  members: '课堂成员',
  nobodyYet: '还没有人加入。',
  online: '在线',
  offline: '离线：节点按脚本继续运行',
  lock: '锁定操作',
  unlock: '解除锁定',
  lockTitle: '锁定期间学生不能操作，老师仍然可以',
  locked: '老师已锁定操作',
  exportRun: '导出运行',
  exportTitle: '把本课堂的运行下载为场景文件（每个操作都标明操作者），重放得到相同的哈希',
  activity: '谁做了什么',
  activityTitle: '每位学生的操作及其生效时间',
  noActivity: '还没有操作。',
  refused: '被拒绝',
  asked: '发起于 {t}',
  yourName: '你的名字',
  namePlaceholder: '例如：小安',
  joinButton: '加入',
  joinRoom: '加入房间 {code}',
  nameHelp: '你的名字会显示在课堂里每块屏幕上你的节点旁边。',
  yourNode: '你的节点：{node}。你可以让它崩溃、重启、减速，或切断、恢复它的链路。',
  noNode: '每个节点都已有学生，你在旁观。',
  connecting: '正在连接课堂……',
  disconnected: '连接已断开，正在重连……',
  teacherAway: '老师的页面未连接：运行暂停等待。',
  waitingLesson: '等待老师开始一节课……',
  sent: '已发送给老师：{action}',
  refusedBy: '老师的设备拒绝了你的操作：{reason}',
  cannotAct: '你不能这样做：{reason}',
  noRoom: '此服务器上没有房间 {code}。请向老师要加入链接。',
  badKey: '这个老师链接不含房间密钥。请打开 `npm run classroom` 打印的老师链接。',
  serverGone: '无法连接课堂服务器（{cause}）。`npm run classroom` 还在运行吗？',
  resync: '你的设备重放了本次运行，以便与课堂保持同步。',
  runN: '第 {n} 次运行',
};

export function rs(lang: Lang, key: RoomStringKey, vars?: Record<string, string | number>): string {
  const text = lang === 'zh' ? zh[key] : en[key];
  if (!vars) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}

export function roomKeys(lang: Lang): string[] {
  return Object.keys(lang === 'zh' ? zh : en);
}

/** A refusal's typed reason in the reader's language (the validator's own detail stays as it is). */
export function refusalText(r: RefusalReason, lang: Lang): string {
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
      return r.detail;
  }
}
