import { addEnglish } from './catalog';
import enFashion from './locales/en.fashion.json';
import enLesson from './locales/en.lesson.json';
import enLin from './locales/en.lin.json';
import enRoom from './locales/en.room.json';

/**
 * Every English namespace at once, as the parts that own them hand them over when they load
 * (catalog.ts `addEnglish`): for the tests that read the whole catalog.
 */
export function addAllEnglish(): void {
  addEnglish('lesson', enLesson);
  addEnglish('room', enRoom);
  addEnglish('lin', enLin);
  addEnglish('fashion', enFashion);
}
