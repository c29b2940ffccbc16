export type Lang = 'en' | 'zh';
/** A text in both interface languages. */
export interface Text {
  en: string;
  zh: string;
}
export function tr(text: Text, lang: Lang): string {
  return text[lang];
}
