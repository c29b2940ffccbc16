/** Interface languages. Scenario texts carry both (`{ en, zh }`). */
export type Lang = 'en' | 'zh';

export interface I18nText {
  en: string;
  zh: string;
}
