import { useQuery } from '@tanstack/react-query';
import { statusQuery } from './system-api';

export function useSystemStatus() {
  return useQuery(statusQuery);
}
