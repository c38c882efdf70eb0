/** A node that knows its neighbours, so a waiter leaves its queue in O(1) when it gives up. */
export interface Linked<T extends Linked<T>> {
  prev: T | undefined;
  next: T | undefined;
  list: WaiterList<T> | undefined;
}

/** A FIFO of linked nodes: push at the tail, shift from the head, remove from anywhere. */
export class WaiterList<T extends Linked<T>> {
  private head: T | undefined;
  private tail: T | undefined;
  size = 0;

  push(node: T): void {
    node.list = this;
    node.prev = this.tail;
    node.next = undefined;
    if (this.tail) this.tail.next = node;
    else this.head = node;
    this.tail = node;
    this.size++;
  }

  shift(): T | undefined {
    const node = this.head;
    if (node) this.remove(node);
    return node;
  }

  /** Does nothing for a node that is not in this list (already shifted or removed). */
  remove(node: T): void {
    if (node.list !== this) return;
    if (node.prev) node.prev.next = node.next;
    else this.head = node.next;
    if (node.next) node.next.prev = node.prev;
    else this.tail = node.prev;
    node.prev = node.next = node.list = undefined;
    this.size--;
  }
}
