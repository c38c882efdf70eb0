import en from '../../locales/en/chat.json';
import ru from '../../locales/ru/chat.json';
import { addNamespace } from '../add-namespace';

addNamespace('chat', { ru, en });
