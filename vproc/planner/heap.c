#include "heap.h"

static int item_less(const vproc_heap_item *x, const vproc_heap_item *y)
{
	if (x->key != y->key)
		return x->key < y->key;
	if (x->t != y->t)
		return x->t < y->t;
	return x->idx < y->idx;
}

static void sift_down(vproc_heap *h, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		if (l < h->n && item_less(&h->a[l], &h->a[m]))
			m = l;
		if (r < h->n && item_less(&h->a[r], &h->a[m]))
			m = r;
		if (m == i)
			return;
		vproc_heap_item tmp = h->a[i];
		h->a[i] = h->a[m];
		h->a[m] = tmp;
		i = m;
	}
}

void vproc_heap_build(vproc_heap *h, vproc_heap_item *a, size_t p,
                      const double *t, const size_t *c)
{
	h->a = a;
	h->n = p;
	for (size_t i = 0; i < p; i++) {
		a[i].t = t[i];
		a[i].idx = i;
		/* Multiply, do not accumulate: keys stay exact for integral t,
		 * which the paper's tie cases (e.g. 3*5 == 5*3) rely on. */
		a[i].next = c[i] + 1;
		a[i].key = t[i] * (double)a[i].next;
	}
	for (size_t i = p / 2; i-- > 0;)
		sift_down(h, i);
}

size_t vproc_heap_take(vproc_heap *h)
{
	vproc_heap_item *top = &h->a[0];
	size_t idx = top->idx;
	/* key = t (c+1) -> t (c+2), recomputed from the count rather than
	 * accumulated, so that rounding never builds up over 10^6 steps. */
	top->next++;
	top->key = top->t * (double)top->next;
	sift_down(h, 0);
	return idx;
}
