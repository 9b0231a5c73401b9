// A binary min-heap: the delaying queue's store of items waiting for their due time.

export class Heap<T> {
  private readonly items: T[] = [];
  private readonly less: (a: T, b: T) => boolean;

  constructor(less: (a: T, b: T) => boolean) {
    this.less = less;
  }

  get size(): number {
    return this.items.length;
  }

  peek(): T | undefined {
    return this.items[0];
  }

  push(item: T): void {
    this.items.push(item);
    this.up(this.items.length - 1);
  }

  pop(): T | undefined {
    const top = this.items[0];
    const last = this.items.pop();
    if (this.items.length > 0 && last !== undefined) {
      this.items[0] = last;
      this.down(0);
    }
    return top;
  }

  clear(): void {
    this.items.length = 0;
  }

  private up(index: number): void {
    let i = index;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(this.at(i), this.at(parent))) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  private down(index: number): void {
    const n = this.items.length;
    let i = index;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < n && this.less(this.at(left), this.at(smallest))) smallest = left;
      if (right < n && this.less(this.at(right), this.at(smallest))) smallest = right;
      if (smallest === i) return;
      this.swap(i, smallest);
      i = smallest;
    }
  }

  private at(i: number): T {
    return this.items[i] as T;
  }

  private swap(a: number, b: number): void {
    const tmp = this.at(a);
    this.items[a] = this.at(b);
    this.items[b] = tmp;
  }
}
