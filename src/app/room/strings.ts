import type { Lang } from '../i18n/lang';
import { catalogKeys, translate, type KeyOf, type Vars } from '../i18n/catalog';

/** The live room's interface strings: namespace `room` of the catalogs in ../i18n/locales (placeholders `{name}`). */
export type RoomStringKey = KeyOf<'room'>;

export function rs(lang: Lang, key: RoomStringKey, vars?: Vars): string {
  return translate(lang, 'room', key, vars);
}

export function roomKeys(lang: Lang): string[] {
  return catalogKeys(lang, 'room');
}
