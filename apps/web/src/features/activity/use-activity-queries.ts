import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { queryKeys } from '../../api/query-keys';
import { fetchLogs, fetchStatistics, type LogFilters } from './activity-api';
import { rangeSeconds, type DayRange } from './date-range';

export function useStatistics(range: DayRange, enabled = true) {
  const { start, end } = rangeSeconds(range);
  return useQuery({
    queryKey: queryKeys.statisticsRange(start, end),
    queryFn: () => fetchStatistics(start, end),
    enabled,
    staleTime: 60_000,
  });
}

export function useLogs(filters: LogFilters, page: number, enabled = true) {
  return useQuery({
    queryKey: queryKeys.logPage(filters, page),
    queryFn: () => fetchLogs(filters, page),
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 15_000,
  });
}
