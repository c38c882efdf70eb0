import { ledgerNote, ledgerNoteText } from './ledger-note';

describe("a balance change's note in the reader's language", () => {
  it('renders a top-up with a decimal comma in Russian and a point in English, exactly as written', () => {
    const note = ledgerNote.topUp('yookassa', '1000.00', '90.1234');
    expect(note).toBe('yookassa 1000.00 RUB at 90.1234');
    expect(ledgerNoteText(note, 'ru')).toBe('ЮKassa: 1000,00 ₽ по курсу 90,1234 ₽ за доллар');
    expect(ledgerNoteText(note, 'en')).toBe('YooKassa: 1000.00 RUB at 90.1234 RUB per dollar');
    expect(ledgerNoteText(ledgerNote.topUp('crypto', '500', '80'), 'ru')).toBe(
      'Криптовалюта: 500 ₽ по курсу 80 ₽ за доллар',
    );
  });

  it('renders a promo bonus, a refund, an admin change and the starting quota', () => {
    expect(ledgerNoteText(ledgerNote.promoBonus(3), 'ru')).toBe('Бонус по промокоду №3');
    expect(ledgerNoteText(ledgerNote.promoBonus(3), 'en')).toBe('Promo code bonus, code #3');
    expect(ledgerNoteText(ledgerNote.refund('yookassa', 7, '250.50', '1000.00'), 'ru')).toBe(
      'Возврат №7 (ЮKassa): 250,50 ₽ из 1000,00 ₽',
    );
    expect(ledgerNoteText('set by admin 5: goodwill, see ticket 12', 'ru')).toBe(
      'Баланс изменён администратором №5: goodwill, see ticket 12',
    );
    expect(ledgerNoteText('set by admin 5', 'en')).toBe('Balance changed by admin #5');
    expect(ledgerNoteText('QuotaForNewUser', 'ru')).toBe('Стартовая квота нового пользователя');
  });

  it('reads rows written before the rendering as they were written, and leaves any other note as it is', () => {
    // payment-settlement.service.ts wrote these texts before ledgerNote existed.
    expect(ledgerNoteText('test 1000.00 RUB at 90', 'ru')).toBe(
      'Тестовое пополнение: 1000,00 ₽ по курсу 90 ₽ за доллар',
    );
    expect(ledgerNoteText('promo 12', 'en')).toBe('Promo code bonus, code #12');
    expect(ledgerNoteText('refund of payment 41', 'ru')).toBe('refund of payment 41');
    expect(ledgerNoteText('', 'ru')).toBe('');
    expect(ledgerNoteText('someprovider 10.00 RUB at 90', 'ru')).toBe(
      'someprovider: 10,00 ₽ по курсу 90 ₽ за доллар',
    );
  });
});
