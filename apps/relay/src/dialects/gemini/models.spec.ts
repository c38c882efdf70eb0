import { GEMINI_DEFAULT_PAGE_SIZE, GEMINI_MAX_PAGE_SIZE, geminiModelPage, toGeminiModel } from './models';
import type { CallableModel } from '../../models/model-listing';

const model = (name: string, contextWindow = 128_000): CallableModel => ({
  name,
  provider: 'openai',
  contextWindow,
  updatedAt: 1_700_000_000,
});
const many = (count: number) =>
  Array.from({ length: count }, (_, i) => model(`m-${String(i).padStart(4, '0')}`));

describe('toGeminiModel', () => {
  it('names the model as a Gemini resource with its context window and the methods relay serves', () => {
    expect(toGeminiModel(model('deepseek-ai/DeepSeek-V3'))).toEqual({
      name: 'models/deepseek-ai/DeepSeek-V3',
      baseModelId: 'deepseek-ai/DeepSeek-V3',
      displayName: 'deepseek-ai/DeepSeek-V3',
      inputTokenLimit: 128_000,
      supportedGenerationMethods: ['generateContent', 'streamGenerateContent'],
    });
  });

  it('leaves the token limit out when the catalogue does not know the context window', () => {
    expect(toGeminiModel(model('x', 0))).not.toHaveProperty('inputTokenLimit');
  });
});

describe('geminiModelPage', () => {
  it('gives every model on one page, without a next token, when they fit', () => {
    expect(geminiModelPage([model('a'), model('b')], {})).toEqual({
      models: [toGeminiModel(model('a')), toGeminiModel(model('b'))],
    });
    expect(geminiModelPage([], {})).toEqual({ models: [] });
  });

  it('pages by pageSize and resumes after the token, neither repeating nor skipping a model', () => {
    const models = many(5);
    const first = geminiModelPage(models, { pageSize: '2' });
    expect(first.models.map((m) => m.baseModelId)).toEqual(['m-0000', 'm-0001']);
    const second = geminiModelPage(models, { pageSize: '2', pageToken: first.nextPageToken });
    expect(second.models.map((m) => m.baseModelId)).toEqual(['m-0002', 'm-0003']);
    const last = geminiModelPage(models, { pageSize: '2', pageToken: second.nextPageToken });
    expect(last).toEqual({ models: [toGeminiModel(models[4]!)] });
  });

  it('resumes after the token even when the model it names was removed meanwhile', () => {
    const first = geminiModelPage(many(4), { pageSize: '2' });
    const withoutSecond = many(4).filter((m) => m.name !== 'm-0001');
    expect(
      geminiModelPage(withoutSecond, { pageToken: first.nextPageToken }).models.map((m) => m.baseModelId),
    ).toEqual(['m-0002', 'm-0003']);
  });

  it('uses 50 a page by default or for a bad size, and never more than 1000', () => {
    expect(geminiModelPage(many(60), {}).models).toHaveLength(GEMINI_DEFAULT_PAGE_SIZE);
    expect(geminiModelPage(many(60), { pageSize: 'lots' }).models).toHaveLength(GEMINI_DEFAULT_PAGE_SIZE);
    expect(geminiModelPage(many(60), { pageSize: '0' }).models).toHaveLength(GEMINI_DEFAULT_PAGE_SIZE);
    expect(geminiModelPage(many(1200), { pageSize: '5000' }).models).toHaveLength(GEMINI_MAX_PAGE_SIZE);
  });
});
