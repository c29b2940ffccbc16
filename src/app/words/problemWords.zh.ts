import { describeNodeIds } from '../../scenario/nodes';
import type { JsonFound, JsonProblem, JsonSyntax } from '../../scenario/json';
import { describeGiven, shortString, type FixedField, type FormatId, type Misnomer, type Given, type ProblemFact, type ProblemWords, type Wanted } from '../../scenario/problems';

/**
 * A scenario file's problems (scenario/problems.ts) in Chinese: a lazy chunk, loaded with zh.json
 * (i18n/catalog.ts). Field paths, ids and the values the file gave stay as the file wrote them; a
 * rule worded only where it is checked (`other`) keeps its English text.
 */

const formats: Record<FormatId, string> = {
  'node-id': '应为节点 ID，例如 "w0"、"s0"、"b0" 或 "c0"',
  'action-node': '应为节点 ID（例如 "w0"），或 "@leader"（领导者）/ "@crashed"（已崩溃的节点）',
  'training-worker': '应为工作节点 ID，例如 "w0"（只有工作节点计算梯度）',
  'worker-id': '应为工作节点 ID，例如 "w0"',
  'coord-node': '应为协调服务节点，例如 "c0"',
  'ps-replica': '应为参数服务器副本 ID，例如 "s0"',
  'server-id': '应为服务器 ID，例如 "s0"',
  'lower-id': '只能用小写字母、数字和 "-"',
  focus: '应为 "topology"、"timeline"、"node:<id>"、"link:<a>-<b>"、"chart:<name>" 或 "panel:<name>"，前面可加 "<variant>/"',
};

const fixedFields: Record<FixedField, string> = {
  schema: '变体的 schema 版本与基准运行相同',
  id: '变体的名字写在它自己的 "id" 里，而不是场景的 id',
  seed: '变体使用基准运行的种子，所以它们只在补丁上不同',
  variants: '变体不能再有变体',
  expect: '变体的预期写在基准运行的 "expect" 里，并加上 "variant": "<id>"（"*" 表示全部）',
  shapes: '形状预期比较的是这节课的各个变体，写在基准运行里',
  base: '基准运行的名字属于基准运行',
  sampleAt: '一节课的每次运行都在相同的时刻采样（基准运行的时刻）',
};

const misnomersZh: Record<Misnomer, string> = {
  'max.message.delay.ms': 'Kafka 没有这个设置；生产者延迟由 linger.ms 和 batch.size 决定，持久性由 acks 决定',
};

const types: Record<string, string> = {
  number: '数字',
  int: '整数',
  string: '字符串',
  boolean: 'true 或 false',
  object: '对象',
  array: '数组',
  nonoptional: '一个值',
};

/** What an unknown discriminator names: `do` an action, `kind` a strategy. */
const options: Record<string, string> = { do: '操作', kind: '策略' };

const roles = { workers: '工作节点', servers: '服务器', brokers: 'broker' } as const;

const list = (items: readonly string[]) => items.join('、');
const quoted = (values: readonly unknown[]) => list(values.map((v) => (typeof v === 'string' ? `"${v}"` : String(v))));
const typeWord = (t: string) => types[t] ?? t;

/** A given value, as "输入的是 …" quotes it. */
function given(g: Given): string {
  switch (g.t) {
    case 'nothing':
      return '空';
    case 'array':
      return '数组';
    case 'object':
      return '对象';
    default:
      // Values as the file wrote them read the same in every language.
      return describeGiven(g);
  }
}

/** A given value with its JSON type, for wrong-type messages. */
function typed(g: Given): string {
  if (g.t === 'string') return `字符串 ${shortString(g.v)}`;
  if (g.t === 'number') return Number.isFinite(g.v) ? `数字 ${g.v}` : '一个大到无法表示的数（读作无穷大）';
  if (g.t === 'nothing') return 'undefined';
  return given(g);
}

function wanted(w: Wanted): string {
  if (w.t === 'type') return typeWord(w.expected);
  if (w.t === 'values') return quoted(w.values);
  return message(w.fact);
}

const counted = (text: string, got: number | undefined) => (got === undefined ? text : `${text}（现有 ${got} 项）`);
const inVariant = (variant: string | undefined) => (variant === undefined ? '' : `在变体“${variant}”中`);

function message(f: ProblemFact): string {
  switch (f.kind) {
    case 'missing':
      return `缺少此项（应为${typeWord(f.expected)}）`;
    case 'notInteger':
      return `应为整数，输入的是 ${f.got}`;
    case 'wrongType':
      return `应为${typeWord(f.expected)}，输入的是${typed(f.got)}`;
    case 'unknownFields':
      return f.fields.map(({ key, hint }) => `没有“${key}”这个字段${hint ? `（是不是“${hint}”？）` : ''}`).join('；');
    case 'unknownOption': {
      const word = options[f.field] ?? f.field;
      const head = f.given === null ? `缺少${word}` : `未知的${word} ${given(f.given)}`;
      return `${head}；可用的${options[f.field] ?? '取值'}：${list(f.options)}`;
    }
    case 'noBranch':
      return `应为${f.wanted.map(wanted).join('或')}，输入的是${typed(f.got)}`;
    case 'invalidValue':
      return `无效的值 ${given(f.got)}`;
    case 'notOneOf':
      return f.values.length === 1 ? `应为 ${quoted(f.values)}，输入的是 ${given(f.got)}` : `应为 ${quoted(f.values)} 之一，输入的是 ${given(f.got)}`;
    case 'tooFewItems':
      return counted(`至少需要 ${f.min} 项`, f.got);
    case 'tooManyItems':
      return counted(`最多只能有 ${f.max} 项`, f.got);
    case 'tooShort':
      return `至少要有 ${f.min} 个字符`;
    case 'tooLong':
      return `最多只能有 ${f.max} 个字符`;
    case 'tooSmall':
      return `${f.inclusive ? '不能小于' : '必须大于'} ${f.min}，输入的是 ${given(f.got)}`;
    case 'tooBig':
      return `${f.inclusive ? '不能大于' : '必须小于'} ${f.max}，输入的是 ${given(f.got)}`;
    case 'badFormat': {
      const format = f.format ? formats[f.format] : f.message.startsWith('Invalid') ? `${f.zodFormat} 格式无效` : f.message;
      return `${format}，输入的是 ${given(f.got)}`;
    }
    case 'invalidKey':
      return f.inner ? `无效的键：${message(f.inner)}` : '无效的键';
    case 'notMultipleOf':
      return `必须是 ${f.divisor} 的倍数，输入的是 ${given(f.got)}`;
    case 'schemaVersion':
      return `不支持 "schema": ${f.got}；这个版本的 CAP 演练场读取 "schema": 1`;
    case 'afterEnd':
      return `${f.t} 在${f.variant === undefined ? '' : `变体“${f.variant}”的`}运行结束之后（"durationMs" 为 ${f.durationMs}）`;
    case 'unknownNode':
      return `节点“${f.id}”${inVariant(f.variant)}${f.run === undefined ? '' : `在运行“${f.run}”中`}不存在（集群中${f.known.length === 0 ? '没有节点' : `有 ${list(describeNodeIds(f.known).split(', '))}`}）`;
    case 'strategyNeeds':
      return `策略“${f.strategy}”至少需要 ${f.min} 个${roles[f.role]}（现在是 ${f.got} 个）`;
    case 'duplicateId':
      return `“${f.id}”已被 ${f.first} 使用`;
    case 'duplicateStep':
      return `“${f.id}”已被另一个步骤使用（一节课里步骤 ID 不能重复）`;
    case 'namesBase':
      return `“${f.id}”是基准运行的名字（${f.named ? '见 "base.id"' : '保留给基准运行'}）；请给变体另取一个 ID`;
    case 'fixedField':
      return fixedFields[f.field];
    case 'noVariant':
      return `没有变体“${f.id}”（${f.variants.length ? `变体有：${list(f.variants)}` : '这个场景没有变体'}；"*" 表示全部，"${f.baseId}" 表示基准运行）`;
    case 'notMeasured':
      return `策略“${f.strategy}”的运行${inVariant(f.variant)}不测量“${f.metric}”（${f.own.length ? `除引擎的指标外，它测量 ${list(f.own)}` : '它只测量引擎的指标'}）`;
    case 'fashionImages':
      return `fashion-mnist 只有 ${f.max} 张训练图片（输入的是 ${f.got}）`;
    case 'noWire':
      return f.purpose === 'protect'
        ? `策略“${f.strategy}”不发送参数服务器更新，没有需要用摘要、标签或序号保护的内容（"tls" 对所有记录都有效；只有 ${list(f.withWire)} 发送这类更新）`
        : `策略“${f.strategy}”不发送参数服务器更新，没有可篡改的内容（只有 ${list(f.withWire)} 发送这类更新）`;
    case 'coordLink':
      return `“${f.id}”是协调服务的节点：它的消息（锁、租约、元数据）不含可篡改的参数服务器更新`;
    case 'leaseNeedsCoord':
      return '"lease" 从协调服务获取锁：请设置 cluster.coord（通常为 3）';
    case 'fencingNeedsLease':
      return '防护令牌（fencing token）检查的是锁授予时发出的令牌：需要 writeLock 为 "lease"';
    case 'atOrOn':
      return '请给出 "at"（以毫秒计的时间）或 "on"（触发的事件）';
    case 'atAndOn':
      return '"at" 和 "on" 只能给一个';
    case 'unknownEvent':
      return `未知事件“${f.event}”${f.hint ? `（是不是“${f.hint}”？）` : ''}；事件是历史记录里的一条注记，如 "leaderElected" 或 "2pc.prepareSent"，或 "action:<do>"，如 "action:crash"`;
    case 'listedTwice':
      return `节点“${f.id}”列了不止一次`;
    case 'sameNode':
      return `"from" 和 "to" 是同一个节点（“${f.id}”）；链路连接两个节点`;
    case 'notAnId':
      return `“${f.id}”不是有效的场景 ID`;
    case 'noBuiltin':
      return `没有名为“${f.id}”的内置场景`;
    case 'httpStatus':
      return `无法加载“${f.id}”（HTTP ${f.status}）`;
    case 'unreachable':
      // The browser's own words stay as it wrote them, quoted after a Chinese sentence.
      return `无法加载“${f.id}”：请求没有得到服务器的回应（浏览器报告：${f.cause}）`;
    case 'notAnIndex':
      return '应为场景 ID 的数组';
    case 'noRun':
      return `没有变体“${f.id}”（运行有：${list(f.runs)}${f.baseAlias ? '；"base" 也指基准运行' : ''}）`;
    case 'afterRunEnd':
      return `${f.t} 在运行“${f.run}”结束之后（"durationMs" 为 ${f.durationMs}）`;
    case 'unknownMetric':
      return `未知指标“${f.metric}”${f.hint ? `（是不是“${f.hint}”？）` : ''}`;
    case 'lessonEvent':
      return `未知事件“${f.event}”；事件是历史记录里的一条注记，如 "leaderElected"，或 "action:<do>"，如 "action:partition"`;
    case 'shapeListedTwice':
      return '有一个变体列了两次';
    case 'noStep':
      return `没有步骤“${f.id}”（步骤有：${list(f.steps)}）`;
    case 'notAnOption':
      return `${f.answer} 不是一个选项：答案从 0 数起，共有 ${f.options} 个选项`;
    case 'badPlaceholder':
      return `占位符 ${f.raw} 不是 {{variant:metric[node]@t}} 的形式（t 为毫秒数、"now" 或 "end"）`;
    case 'inPlaceholder':
      return `占位符 ${f.raw}：${message(f.inner)}`;
    case 'misnomer':
      return misnomersZh[f.key];
    case 'replicasNeedBrokers':
      return `${f.rf} 个副本至少需要 ${f.rf} 个 broker（集群中有 ${f.brokers} 个）`;
    case 'otherServiceRead':
      return f.service === 'etcd'
        ? `"${f.reads}" 是 ZooKeeper 的读取方式；etcd 的读取方式是 "linearizable" 或 "serializable"`
        : `"${f.reads}" 是 etcd 的读取方式；ZooKeeper 的读取方式是 "local" 或 "sync-then-local"`;
    case 'krumTooFew':
      return `${f.rule} 每轮需要 n > 2f + 2 个梯度（Blanchard 等，2017）；f = ${f.f} 时至少要 ${2 * f.f + 3} 个，现在 n = ${f.n}${f.backup ? '（n = 工作节点数 − backupWorkers）' : ''}`;
    case 'langTag':
      return `“${f.key}”不是语言标签（应为 "en"、"zh" 或 "ja" 这样的标签）`;
    case 'valueMissing':
      return '缺少此项（应为数字）；只有与另一个变体（"than"）或另一个时刻（"thanAt"）比较时才可以省略';
    case 'comparisonValue':
      return '比较（"than"/"thanAt"）没有 "value"：实际值与 "factor" × 对方值 + "offset" 满足 "op" 时成立（请给出 "factor" 和 "offset"）';
    case 'comparisonOnly':
      return `只有比较才用“${f.field}”：请给出 "than"（一个变体）或 "thanAt"（一个时刻）`;
    case 'actionNeedsDo':
      return '操作需要 "do" 字段';
    case 'rangeOrder':
      // A word joiner after the dash: a line without spaces breaks there otherwise ("300–" / "150").
      return `最小值不能大于最大值${f.got ? `，输入的是 ${f.got[0]}–\u2060${f.got[1]}` : ''}`;
    case 'other':
      return f.text;
  }
}

const jsonExpected: Record<Extract<JsonSyntax, { kind: 'unexpected' }>['expected'], string> = {
  value: '一个值',
  'property-name': '用双引号括起的属性名',
  colon: '属性名后的冒号 ":"',
  'comma-or-brace': '逗号 "," 或 "}"',
  'comma-or-bracket': '逗号 "," 或 "]"',
  end: '文件结尾',
};

function foundZh(f: JsonFound): string {
  return f.t === 'end' ? '文件结尾' : f.t === 'line-break' ? '换行' : `「${f.c}」`;
}

function syntax(x: JsonSyntax): string {
  switch (x.kind) {
    case 'unexpected':
      if (x.expected === 'end') return `JSON 值之后应为文件结尾，这里却是${foundZh(x.found)}`;
      return `这里是${foundZh(x.found)}，应为${jsonExpected[x.expected]}`;
    case 'bad-unicode-escape':
      return '无效的 \\u 转义：后面应为 4 个十六进制数字';
    case 'bad-escape':
      return `字符串中有无效的转义 "\\${x.escape}"`;
    case 'control-in-string':
      return '字符串中有未转义的控制字符或换行（是不是少了右引号？）';
    case 'unterminated-string':
      return '字符串没有结束（少了右引号）';
    case 'bad-number':
      return '无效的数字';
    case 'bare-word':
      return `意外的单词 "${x.word}"；字符串要用双引号，字面量只有 true、false 和 null`;
    case 'too-deep':
      return `嵌套超过 ${x.max} 层（一个场景大约只需 6 层）`;
    case 'single-quotes':
      return '字符串要用双引号，不能用单引号';
    case 'single-quoted-name':
      return '属性名要用双引号，不能用单引号';
    case 'trailing-comma':
      return `"${x.close}" 前面多了一个逗号`;
    case 'empty':
      return '文件是空的';
    case 'engine':
      return x.message;
  }
}

function json(p: JsonProblem): string {
  if (p.line === 0) return `JSON 嵌套太深，无法读取（${syntax(p.syntax)}）`;
  return `第 ${p.line} 行第 ${p.column} 列：${syntax(p.syntax)}`;
}

export const problemsZh: ProblemWords = {
  message,
  line: (where, text) => `${where}：${text}`,
  inVariant: (variant, id, line) => `${variant}（“${id}”）：${line}`,
  inFile: (file, line) => `${file}：${line}`,
  more: (n) => `……还有 ${n} 个问题`,
  json,
  root: (root) => (root === 'scenario' ? '场景文件' : root),
};
