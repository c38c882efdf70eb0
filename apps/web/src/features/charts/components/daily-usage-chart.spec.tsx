import { render } from '@testing-library/react';
import { i18next } from '../../../i18n/i18n';
import { DailyUsageChart } from './daily-usage-chart';

const drawn: { options?: { locale?: string } } = {};
jest.mock('react-chartjs-2', () => ({
  Bar: (props: { options?: { locale?: string } }) => {
    drawn.options = props.options;
    return null;
  },
}));

const days = [{ day: '2026-11-28', quota: 0, requests: 0, tokens: 0 }];

describe('daily usage chart', () => {
  afterAll(() => i18next.changeLanguage('ru'));

  it.each([
    ['en', 'en-US'],
    ['ru', 'ru-RU'],
  ])(
    'formats its axis numbers in the interface language %s (%s), not the browser locale',
    async (language, locale) => {
      await i18next.changeLanguage(language);
      render(<DailyUsageChart days={days} formatQuota={String} quotaToAmount={Number} />);
      expect(drawn.options?.locale).toBe(locale);
    },
  );
});
