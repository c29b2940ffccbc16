import type { Lang } from '../i18n/lang';
import { english, translate, type KeyOf } from '../i18n/catalog';

/**
 * Every label the four views draw: namespace `views` of the catalogs in ../i18n/locales. Chinese
 * terms follow the curriculum glossary (版本, 陈旧度, 副本分歧, 损失, 准确率, 网络分区, 主题分区 …) so a
 * lesson's text and the picture it points at use the same words.
 */
export type ViewStringKey = KeyOf<'views'>;

export function vs(lang: Lang, key: ViewStringKey): string {
  return translate(lang, 'views', key);
}

type KindKey = KeyOf<'kinds'>;
function isKind(kind: string): kind is KindKey {
  return Object.hasOwn(english.kinds, kind);
}

/** Message kinds, as a legend names them (namespace `kinds`). Unknown kinds fall back to their engine name. */
export function kindName(kind: string, lang: Lang): string {
  return isKind(kind) ? translate(lang, 'kinds', kind) : kind;
}
