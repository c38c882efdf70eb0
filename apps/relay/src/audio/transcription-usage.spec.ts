import { transcriptionEstimate, transcriptionUsage, transcriptText } from './transcription-usage';

const words = (text: string) => text.split(/\s+/).filter((w) => w !== '').length;

describe('transcription usage', () => {
  it('takes the tokens the gpt-4o transcribe models report', () => {
    expect(
      transcriptionUsage(
        { text: 'hello there', usage: { type: 'tokens', input_tokens: 40, output_tokens: 2 } },
        words,
      ),
    ).toEqual({ prompt_tokens: 40, completion_tokens: 2, cached_tokens: 0 });
  });

  it("counts whisper's transcript when the usage is in seconds or absent", () => {
    const counted = { prompt_tokens: 0, completion_tokens: 3, cached_tokens: 0 };
    expect(
      transcriptionUsage({ text: 'one two three', usage: { type: 'duration', seconds: 9 } }, words),
    ).toEqual(counted);
    expect(transcriptionUsage({ text: 'one two three' }, words)).toEqual(counted);
    expect(transcriptionUsage({ text: '' }, words).completion_tokens).toBe(0);
    expect(transcriptionUsage('not an object', words).completion_tokens).toBe(0);
  });

  it('reads only the words of SRT and WebVTT answers', () => {
    expect(
      transcriptText(
        '1\n00:00:00,000 --> 00:00:04,000\nHello world\n\n2\n00:00:04,000 --> 00:00:05,000\nAgain\n',
      ),
    ).toBe('Hello world\nAgain');
    expect(transcriptText('WEBVTT\n\n00:00:00.000 --> 00:00:04.000\nHello world\n\n')).toBe('Hello world');
    expect(transcriptText('Plain text\n')).toBe('Plain text');
  });

  it('bounds the reservation by the longest clip the bytes can hold', () => {
    expect(transcriptionEstimate(64_000, 10)).toEqual({ promptTokens: 650, maxOutputTokens: 256 });
    expect(transcriptionEstimate(1, 0)).toEqual({ promptTokens: 10, maxOutputTokens: 4 });
  });
});
