import en from '../../locales/en/auth.json';
import ru from '../../locales/ru/auth.json';
import { addNamespace } from '../add-namespace';

addNamespace('auth', { ru, en });
