import { STORAGE_KEYS } from '../../lib/local-storage-keys';
import { dismissNotice, isNoticeDismissed, noticeFingerprint } from './dismissed-notice';

describe('dismissed notice', () => {
  beforeEach(() => localStorage.clear());

  it('holds for the text that was hidden, and not for a changed one', () => {
    dismissNotice('**Скидка 10%** до пятницы');
    expect(isNoticeDismissed('**Скидка 10%** до пятницы')).toBe(true);
    expect(isNoticeDismissed('**Скидка 15%** до пятницы')).toBe(false);
  });

  it('stores a short fingerprint, not the text itself', () => {
    const text = 'Новые модели GLM. '.repeat(200);
    dismissNotice(text);
    const stored = localStorage.getItem(STORAGE_KEYS.dismissedNotice)!;
    expect(stored).toBe(noticeFingerprint(text));
    expect(stored.length).toBeLessThan(20);
    expect(noticeFingerprint('a')).not.toBe(noticeFingerprint('b'));
  });
});
