import type { Lang } from '../i18n/lang';
import { addEnglish, catalogKeys, translate, type KeyOf, type Vars } from '../i18n/catalog';
import enRoom from '../i18n/locales/en.room.json';

// The room's English texts come with the room's code (catalog.ts `addEnglish`).
addEnglish('room', enRoom);

/** The live room's interface strings: namespace `room` of the catalogs in ../i18n/locales (placeholders `{name}`). */
export type RoomStringKey = KeyOf<'room'>;

export function rs(lang: Lang, key: RoomStringKey, vars?: Vars): string {
  return translate(lang, 'room', key, vars);
}

export function roomKeys(lang: Lang): string[] {
  return catalogKeys(lang, 'room');
}
