import { copyText } from './clipboard';

describe('copyText', () => {
  afterEach(() => {
    delete (document as { execCommand?: unknown }).execCommand;
  });

  it('uses the Clipboard API in a secure context', async () => {
    const writeText = jest.fn().mockResolvedValue(undefined);
    await expect(copyText('sk-1', { clipboard: { writeText }, secureContext: true, document })).resolves.toBe(
      'copied',
    );
    expect(writeText).toHaveBeenCalledWith('sk-1');
  });

  it('falls back to selecting text when the Clipboard API refuses', async () => {
    const writeText = jest.fn().mockRejectedValue(new Error('denied'));
    const execCommand = jest.fn().mockReturnValue(true);
    Object.assign(document, { execCommand });
    await expect(copyText('sk-2', { clipboard: { writeText }, secureContext: true, document })).resolves.toBe(
      'copied',
    );
    expect(execCommand).toHaveBeenCalledWith('copy');
    expect(document.querySelector('textarea')).toBeNull();
  });

  it('falls back outside a secure context', async () => {
    const writeText = jest.fn();
    Object.assign(document, { execCommand: jest.fn().mockReturnValue(true) });
    await expect(
      copyText('sk-3', { clipboard: { writeText }, secureContext: false, document }),
    ).resolves.toBe('copied');
    expect(writeText).not.toHaveBeenCalled();
  });

  it('says the browser cannot copy when it has neither way', async () => {
    await expect(copyText('sk-4', { secureContext: false, document })).resolves.toBe('unsupported');
  });

  it('says copying failed when the browser refuses the selection copy', async () => {
    Object.assign(document, { execCommand: jest.fn().mockReturnValue(false) });
    await expect(copyText('sk-5', { secureContext: false, document })).resolves.toBe('failed');
  });
});
