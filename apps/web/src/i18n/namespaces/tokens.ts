import en from '../../locales/en/tokens.json';
import ru from '../../locales/ru/tokens.json';
import { addNamespace } from '../add-namespace';

addNamespace('tokens', { ru, en });
