import {
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
  type RefObject,
} from 'react';

export interface WindowedListProps<T> {
  items: readonly T[];
  keyOf: (item: T) => string | number;
  render: (item: T) => ReactNode;
  /** Attributes of each item's <li> (besides its key). */
  itemAttributes?: (item: T) => Record<string, string | number>;
  className?: string;
  /** A guess for items not drawn yet; each drawn item is measured and remembered. */
  estimatedHeight: number;
  /** Up to this many items, all are drawn (and the browser's find sees them all). */
  drawAllUpTo?: number;
}

interface Range {
  first: number;
  last: number;
}

/**
 * An <ol> that draws only the items near the screen (one screen above and below it), with
 * spacers standing in for the rest, in a page that scrolls as a whole. Items have different
 * heights: each drawn one is measured (and measured again when it changes size, e.g. a
 * details element opened), and its height kept for the spacers, so the scroll bar is right
 * for the part already seen and close for the rest. A 1,000-step run then draws ~10 cards.
 */
export function WindowedList<T>({
  items,
  keyOf,
  render,
  itemAttributes,
  className,
  estimatedHeight,
  drawAllUpTo = 30,
}: WindowedListProps<T>) {
  const list = useRef<HTMLOListElement>(null);
  const { heights, measured, observe } = useMeasuredHeights();
  const windowed = items.length > drawAllUpTo;
  // `measured` counts the measurements that changed a height: the tops are worked out again.
  const tops = useMemo(
    () => topsOf(items, keyOf, heights, estimatedHeight),
    [items, keyOf, heights, estimatedHeight, measured],
  );
  const range = useVisibleRange(list, tops, windowed, estimatedHeight);
  const first = windowed ? Math.min(range.first, items.length) : 0;
  const last = windowed ? Math.min(range.last + 1, items.length) : items.length;
  const total = tops[items.length] ?? 0;
  const above = tops[first] ?? 0;
  const below = total - (tops[last] ?? total);
  return (
    <ol className={className} ref={list} data-items={items.length}>
      {above > 0 ? <li className="window-spacer" aria-hidden style={{ height: above }} /> : null}
      {items.slice(first, last).map((item) => {
        const key = keyOf(item);
        return (
          <li key={key} ref={observe} data-window-key={key} {...itemAttributes?.(item)}>
            {render(item)}
          </li>
        );
      })}
      {below > 0 ? <li className="window-spacer" aria-hidden style={{ height: below }} /> : null}
    </ol>
  );
}

/**
 * The items to draw: those from one screen above the visible part of the list to one screen
 * below it, worked out again (once a frame at most) as the page scrolls or is resized.
 */
function useVisibleRange(
  list: RefObject<HTMLOListElement | null>,
  tops: readonly number[],
  windowed: boolean,
  estimatedHeight: number,
): Range {
  const [range, setRange] = useState<Range>({
    first: 0,
    last: Math.ceil((2 * window.innerHeight) / estimatedHeight),
  });
  const updateRange = useCallback(() => {
    const element = list.current;
    if (element === null) return;
    const screen = window.innerHeight;
    const top = -element.getBoundingClientRect().top - screen;
    const bottom = top + 3 * screen;
    const next = { first: firstBelow(tops, top), last: firstBelow(tops, bottom) };
    setRange((previous) =>
      previous.first === next.first && previous.last === next.last ? previous : next,
    );
  }, [list, tops]);
  useEffect(() => {
    if (!windowed) return;
    let frame: number | undefined;
    const onScroll = () => {
      frame ??= window.requestAnimationFrame(() => {
        frame = undefined;
        updateRange();
      });
    };
    updateRange();
    window.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('resize', onScroll);
    return () => {
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('resize', onScroll);
      if (frame !== undefined) window.cancelAnimationFrame(frame);
    };
  }, [windowed, updateRange]);
  return range;
}

/**
 * The height of every item drawn so far, by key (as the data attribute gives it back: a
 * string), and `observe`, the ref for each item's element: it reports the height now and
 * whenever it changes (a details element opened), and lets go when the item is taken out.
 * `measured` changes whenever a height did.
 */
function useMeasuredHeights(): {
  heights: ReadonlyMap<string, number>;
  measured: number;
  observe: (element: HTMLLIElement) => () => void;
} {
  const heights = useRef(new Map<string, number>());
  const [measured, setMeasured] = useState(0);
  // Made on first use: the items' refs are attached before this component's effects run.
  const observer = useRef<ResizeObserver | undefined>(undefined);
  const watcher = useCallback(() => {
    observer.current ??= new ResizeObserver((entries) => {
      let changed = false;
      for (const entry of entries) {
        const element = entry.target as HTMLElement;
        const key = element.dataset.windowKey;
        // A card just taken out of the page measures 0: keep what it measured in it.
        if (key === undefined || !element.isConnected) continue;
        const height = element.offsetHeight;
        if (Math.abs((heights.current.get(key) ?? -1) - height) > 1) {
          heights.current.set(key, height);
          changed = true;
        }
      }
      if (changed) setMeasured((count) => count + 1);
    });
    return observer.current;
  }, []);
  useEffect(
    () => () => {
      observer.current?.disconnect();
      observer.current = undefined;
    },
    [],
  );
  const observe = useCallback(
    (element: HTMLLIElement) => {
      watcher().observe(element);
      return () => watcher().unobserve(element);
    },
    [watcher],
  );
  return { heights: heights.current, measured, observe };
}

/** The top of each item in the list, and the list's height last: measured or estimated. */
function topsOf<T>(
  items: readonly T[],
  keyOf: (item: T) => string | number,
  heights: ReadonlyMap<string, number>,
  estimatedHeight: number,
): number[] {
  const tops = new Array<number>(items.length + 1);
  let top = 0;
  items.forEach((item, index) => {
    tops[index] = top;
    top += heights.get(String(keyOf(item))) ?? estimatedHeight;
  });
  tops[items.length] = top;
  return tops;
}

/** The index of the item that contains `offset` (binary search over the tops). */
function firstBelow(tops: readonly number[], offset: number): number {
  let low = 0;
  let high = tops.length - 2;
  if (high < 0) return 0;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if ((tops[middle] ?? 0) <= offset) low = middle;
    else high = middle - 1;
  }
  return low;
}
