import { ApiError } from '../../api/api-error';
import { exportErrorText } from './use-export-logs';

const texts: Record<string, string> = {
  export_too_many: 'Слишком много попыток. Попробуйте снова через 10 секунд',
  export_failed: 'Не удалось получить логи для экспорта',
};
const t = (key: string) => texts[key];

describe('log export errors', () => {
  it('asks to wait 10 seconds on 429', () => {
    expect(exportErrorText(new ApiError('http', 'rate limited', 429), t)).toBe(
      'Слишком много попыток. Попробуйте снова через 10 секунд',
    );
  });

  it("shows the server's message for other failures", () => {
    expect(exportErrorText(new ApiError('http', 'Диапазон больше 31 дня', 400), t)).toBe(
      'Диапазон больше 31 дня',
    );
  });

  it('falls back when there is no message', () => {
    expect(exportErrorText(new ApiError('network', ''), t)).toBe('Не удалось получить логи для экспорта');
    expect(exportErrorText(new Error('x'), t)).toBe('Не удалось получить логи для экспорта');
  });
});
