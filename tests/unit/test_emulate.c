/*
 * test_emulate.c -- the arithmetic of the emulated cluster (vproc/model/emulate.c):
 * charging compute to a machine shared by its virtual processes, the
 * one-port network of 003 s2.2, and the choice of absolute speeds.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "model/model.h"

/* A lone process on an idle machine runs from when it is ready. */
static void charge_idle_machine(void **state)
{
	(void)state;
	assert_int_equal(vproc_emu_charge(0, 1000, 500), 1500);
	/* the machine finished long ago: no credit for idle time */
	assert_int_equal(vproc_emu_charge(200, 1000, 500), 1500);
}

/* Siblings serialize: three equal segments ready at once end at 1x, 2x,
 * 3x -- the machine is one processor (000 s2). */
static void charge_siblings_serialize(void **state)
{
	(void)state;
	unsigned long long busy = 0;
	unsigned long long ends[3];
	for (int k = 0; k < 3; k++) {
		ends[k] = vproc_emu_charge(busy, 100, 1000);
		busy = ends[k];
	}
	assert_int_equal(ends[0], 1100);
	assert_int_equal(ends[1], 2100);
	assert_int_equal(ends[2], 3100);
	/* a sibling ready after the machine is free starts when ready */
	assert_int_equal(vproc_emu_charge(busy, 5000, 10), 5010);
}

static void work_scales(void **state)
{
	(void)state;
	assert_int_equal(vproc_emu_work(1000, 3.0), 3000);
	assert_int_equal(vproc_emu_work(1000, 2.5), 2500);
	assert_int_equal(vproc_emu_work(3, 0.5), 2);      /* 1.5 rounds to 2 */
	assert_int_equal(vproc_emu_work(0, 7.0), 0);
	assert_int_equal(vproc_emu_work(1000, NAN), 0);
}

/* One port: 1 MB at 1e6 B/s takes 1 s on the wire; latency 0.1 ms. */
static void port_one_message(void **state)
{
	(void)state;
	unsigned long long nf;
	unsigned long long arr = vproc_emu_send(0, 5000, 100000, 1e6, 1000000, &nf);
	assert_int_equal(nf, 5000 + 1000000000ull);
	assert_int_equal(arr, 5000 + 1000000000ull + 100000);
}

/* The second message waits for the port, not for the first's latency. */
static void port_serializes(void **state)
{
	(void)state;
	unsigned long long port = 0, nf;
	unsigned long long a1 = vproc_emu_send(port, 0, 50, 1e9, 1000, &nf);  /* 1 us wire */
	port = nf;
	unsigned long long a2 = vproc_emu_send(port, 10, 50, 1e9, 1000, &nf);
	assert_int_equal(a1, 1000 + 50);
	assert_int_equal(port, 1000);
	assert_int_equal(a2, 1000 + 1000 + 50);   /* starts when the port frees */
	assert_int_equal(nf, 2000);
	/* an idle port: the message leaves when posted */
	assert_int_equal(vproc_emu_send(2000, 9000, 50, 1e9, 1000, &nf), 9000 + 1000 + 50);
	/* a free network (bandwidth 0 = infinite): latency only */
	assert_int_equal(vproc_emu_send(0, 7, 30, 0.0, 123456, &nf), 37);
	assert_int_equal(nf, 7);
}

static void speeds_given(void **state)
{
	(void)state;
	double t[3] = { 100, 143, 353 }, scale[3], K;
	/* 300 Mflop/s at cycle time 100, on a 6000 Mflop/s host */
	assert_int_equal(vproc_emu_speeds(3, t, 6000, 2, 300, 100, scale, &K), VPROC_OK);
	assert_true(fabs(K - 30000) < 1e-9);
	assert_true(fabs(scale[0] - 20.0) < 1e-12);          /* 6000 / 300 */
	assert_true(fabs(scale[1] - 6000 * 143 / 30000.0) < 1e-12);
	assert_true(fabs(scale[2] / scale[0] - 3.53) < 1e-12);
	/* faster than the host: refused */
	assert_int_equal(vproc_emu_speeds(3, t, 6000, 2, 9000, 100, scale, &K), VPROC_EINVAL);
}

/* Chosen: the cluster asks at most half of the computer, and no machine
 * more than a quarter of a core. */
static void speeds_chosen(void **state)
{
	(void)state;
	double t[3] = { 100, 143, 353 }, scale[3], K;
	assert_int_equal(vproc_emu_speeds(3, t, 6000, 8, 0, 0, scale, &K), VPROC_OK);
	/* 8 cores: the per-machine cap binds: fastest at a quarter of a core */
	assert_true(fabs(K / 100 - 1500) < 1e-9);
	double demand = 0;
	for (int i = 0; i < 3; i++)
		demand += K / t[i];
	assert_true(demand <= 6000 * 8 / 2.0 + 1e-9);
	/* many machines on 1 core: the cluster cap binds: the sum of speeds
	 * is half the computer */
	double t9[9] = { 100, 100, 100, 100, 100, 100, 100, 100, 100 }, s9[9];
	assert_int_equal(vproc_emu_speeds(9, t9, 6000, 1, 0, 0, s9, &K), VPROC_OK);
	demand = 0;
	for (int i = 0; i < 9; i++)
		demand += K / t9[i];
	assert_true(fabs(demand - 3000) < 1e-6);
	for (int i = 0; i < 9; i++)
		assert_true(s9[i] >= 4.0 - 1e-12);
}

static void speeds_bad(void **state)
{
	(void)state;
	double t[2] = { 1, -1 }, scale[2], K;
	assert_int_equal(vproc_emu_speeds(2, t, 6000, 2, 0, 0, scale, &K), VPROC_EINVAL);
	t[1] = 2;
	assert_int_equal(vproc_emu_speeds(0, t, 6000, 2, 0, 0, scale, &K), VPROC_EINVAL);
	assert_int_equal(vproc_emu_speeds(2, t, 0, 2, 0, 0, scale, &K), VPROC_EINVAL);
	assert_int_equal(vproc_emu_speeds(2, t, 6000, 0, 0, 0, scale, &K), VPROC_EINVAL);
	assert_int_equal(vproc_emu_speeds(2, t, 6000, 2, 100, 0, scale, &K), VPROC_EINVAL);
} /* cooperative waiting's steps (vproc/model/wait_step.c). */
static const vproc_wait_policy wait_pol = { .spins = 3, .yields = 2, .peer_yields = 4 };

/* A rank per processor or fewer: polls, then yields, then sleeps with a
 * nap index growing every 4 steps; the peer does not matter. */
static void wait_uncrowded_polls_yields_sleeps(void **state)
{
	(void)state;
	const vproc_wait_action want[] = { VPROC_WAIT_POLL, VPROC_WAIT_POLL, VPROC_WAIT_POLL,
	                                   VPROC_WAIT_YIELD, VPROC_WAIT_YIELD, VPROC_WAIT_SLEEP };
	for (unsigned i = 0; i < 6; i++)
		for (int peer = 0; peer <= 1; peer++) {
			assert_int_equal(vproc_wait_step(&wait_pol, i, 0, vproc_wait_crowded(2, 2), peer), want[i]);
			/* no segment (awake unknown): never crowded */
			assert_int_equal(vproc_wait_step(&wait_pol, i, 0, vproc_wait_crowded(-1, 2), peer), want[i]);
		}
	assert_int_equal(vproc_wait_step(&wait_pol, 1000, 0, vproc_wait_crowded(1, 2), 1), VPROC_WAIT_SLEEP);
	assert_int_equal(vproc_wait_nap_index(&wait_pol, 5), 0);
	assert_int_equal(vproc_wait_nap_index(&wait_pol, 8), 0);
	assert_int_equal(vproc_wait_nap_index(&wait_pol, 9), 1);
	assert_int_equal(vproc_wait_nap_index(&wait_pol, 13), 2);
	assert_int_equal(vproc_wait_nap_index(&wait_pol, 0), 0);
}

/* The virtual clock's shortest nap: 1 ms up to 31 ranks, 1 ms per 16
 * ranks above, 10 ms from 160 ranks on. */
static void wait_virtual_nap_grows_with_ranks(void **state)
{
	(void)state;
	assert_int_equal(vproc_wait_virtual_nap_ns(0), 1000000L);
	assert_int_equal(vproc_wait_virtual_nap_ns(9), 1000000L);
	assert_int_equal(vproc_wait_virtual_nap_ns(31), 1000000L);
	assert_int_equal(vproc_wait_virtual_nap_ns(32), 2000000L);
	assert_int_equal(vproc_wait_virtual_nap_ns(128), 8000000L);
	assert_int_equal(vproc_wait_virtual_nap_ns(160), 10000000L);
	assert_int_equal(vproc_wait_virtual_nap_ns(1024), 10000000L);
}

/* More awake ranks than processors: no polls; yields while the peer is
 * awake, up to the cap; a sleeping peer means sleep at once. */
static void wait_crowded_yields_to_awake_peer(void **state)
{
	(void)state;
	for (unsigned y = 0; y < 4; y++)
		assert_int_equal(vproc_wait_step(&wait_pol, 0, y, vproc_wait_crowded(3, 2), 1), VPROC_WAIT_PEER_YIELD);
	assert_int_equal(vproc_wait_step(&wait_pol, 0, 4, vproc_wait_crowded(3, 2), 1), VPROC_WAIT_SLEEP);
	assert_int_equal(vproc_wait_step(&wait_pol, 0, 0, vproc_wait_crowded(3, 2), 0), VPROC_WAIT_SLEEP);
	assert_int_equal(vproc_wait_step(&wait_pol, 4, 0, vproc_wait_crowded(9, 2), 0), VPROC_WAIT_SLEEP);
	/* a crowd ends when ranks fall asleep: the same step polls again */
	assert_int_equal(vproc_wait_step(&wait_pol, 0, 0, vproc_wait_crowded(2, 2), 0), VPROC_WAIT_POLL);
	/* cpus unknown (0): never crowded */
	assert_int_equal(vproc_wait_step(&wait_pol, 0, 0, vproc_wait_crowded(9, 0), 1), VPROC_WAIT_POLL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(charge_idle_machine),
		cmocka_unit_test(wait_uncrowded_polls_yields_sleeps),
		cmocka_unit_test(wait_crowded_yields_to_awake_peer),
		cmocka_unit_test(charge_siblings_serialize),
		cmocka_unit_test(work_scales),
		cmocka_unit_test(wait_virtual_nap_grows_with_ranks),
		cmocka_unit_test(port_one_message),
		cmocka_unit_test(port_serializes),
		cmocka_unit_test(speeds_given),
		cmocka_unit_test(speeds_chosen),
		cmocka_unit_test(speeds_bad),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
