import * as RadixTooltip from '@radix-ui/react-tooltip';
import { useCallback, useEffect, useRef, useState, type ReactElement, type ReactNode } from 'react';

/** SPEC §2/§9 tooltip behaviour; sizes, layer and fade live in index.css (.tooltip-bubble). */
export const TOOLTIP_TIMING = {
  showDelayMs: 200,
  hideAfterTriggerLeaveMs: 100,
  hideAfterBubbleLeaveMs: 50,
} as const;
export const TOOLTIP_VIEWPORT_MARGIN_PX = 10;

export interface TooltipProps {
  content: ReactNode;
  /** A single element that can hold a ref (a button, a link, a span…). */
  children: ReactElement;
  side?: 'top' | 'right' | 'bottom' | 'left';
}

/**
 * Radix places the bubble (flip, 10 px from the viewport edge, arrow); we own the hide delays,
 * which Radix does not offer: 100 ms after the pointer leaves the trigger, 50 ms after it leaves
 * the bubble, and none for Escape, a click or a blur.
 */
export function Tooltip({ content, children, side = 'top' }: TooltipProps) {
  const [open, setOpen] = useState(false);
  const hideTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const cancelHide = useCallback(() => {
    if (hideTimer.current !== null) clearTimeout(hideTimer.current);
    hideTimer.current = null;
  }, []);
  const hideAfter = useCallback(
    (ms: number) => {
      cancelHide();
      hideTimer.current = setTimeout(() => {
        hideTimer.current = null;
        setOpen(false);
      }, ms);
    },
    [cancelHide],
  );
  useEffect(() => cancelHide, [cancelHide]);

  const onOpenChange = (next: boolean) => {
    if (next) {
      cancelHide();
      setOpen(true);
    } else if (hideTimer.current === null) {
      setOpen(false);
    }
  };

  return (
    <RadixTooltip.Provider delayDuration={TOOLTIP_TIMING.showDelayMs}>
      <RadixTooltip.Root open={open} onOpenChange={onOpenChange}>
        <RadixTooltip.Trigger
          asChild
          onPointerEnter={cancelHide}
          onPointerLeave={() => open && hideAfter(TOOLTIP_TIMING.hideAfterTriggerLeaveMs)}
        >
          {children}
        </RadixTooltip.Trigger>
        <RadixTooltip.Portal>
          <RadixTooltip.Content
            side={side}
            sideOffset={6}
            avoidCollisions
            collisionPadding={TOOLTIP_VIEWPORT_MARGIN_PX}
            className="tooltip-bubble"
            onPointerEnter={cancelHide}
            onPointerLeave={() => hideAfter(TOOLTIP_TIMING.hideAfterBubbleLeaveMs)}
          >
            {content}
            <RadixTooltip.Arrow className="tooltip-arrow" width={10} height={5} />
          </RadixTooltip.Content>
        </RadixTooltip.Portal>
      </RadixTooltip.Root>
    </RadixTooltip.Provider>
  );
}
