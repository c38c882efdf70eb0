import en from '../../locales/en/docs.json';
import ru from '../../locales/ru/docs.json';
import { addNamespace } from '../add-namespace';

addNamespace('docs', { ru, en });
