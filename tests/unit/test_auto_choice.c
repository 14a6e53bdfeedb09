/*
 * test_auto_choice.c -- launcher/layouts/auto_choice.c: which plan layout
 * auto keeps from its 1d and 2d plans' times.  By their own model when
 * both have one (a tie keeps 1d); by the sum of phases when one's own
 * model was over the planning budget (it used to keep the other blindly:
 * bench_plan's 4096 processors, 1d 2518 s kept over 2d 38.8 s); 2d when
 * even that is over the budget; the one predicted when the other was not
 * planned or has no model.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "layouts/auto_choice.h"

/* Both planned; own times o1, o2 (0: over the budget). */
static hl_auto_times times(double o1, double o2)
{
	hl_auto_times t = { .planned = { 1, 1 }, .own = { o1, o2 } };
	t.over[0] = !(o1 > 0);
	t.over[1] = !(o2 > 0);
	return t;
}

static void by_own_model(void **state)
{
	(void)state;
	hl_auto_basis b;
	hl_auto_times t = times(2518.0, 38.8);
	assert_false(hl_auto_needs_phases(&t));
	assert_int_equal(hl_auto_choose(&t, &b), 1);
	assert_int_equal(b, HL_AUTO_BY_MODEL);
	t = times(3.5, 8.1);
	assert_int_equal(hl_auto_choose(&t, &b), 0);
	/* 2d faster by less than the tie keeps 1d; by the tie, 2d */
	t = times(1.004, 1.0);
	assert_int_equal(hl_auto_choose(&t, &b), 0);
	t = times(1.006, 1.0);
	assert_int_equal(hl_auto_choose(&t, &b), 1);
}

/* One over its budget: the sum of phases decides, either way. */
static void by_phases(void **state)
{
	(void)state;
	hl_auto_basis b;
	hl_auto_times t = times(2518.0, 0.0);
	assert_true(hl_auto_needs_phases(&t));
	t.phases[0] = 2400.0;
	t.phases[1] = 37.0;
	assert_int_equal(hl_auto_choose(&t, &b), 1);
	assert_int_equal(b, HL_AUTO_BY_PHASES);
	t.phases[1] = 2500.0;
	assert_int_equal(hl_auto_choose(&t, &b), 0);
	assert_int_equal(b, HL_AUTO_BY_PHASES);
	t = times(0.0, 38.8);   /* 1d over, 1d faster by the phases */
	t.phases[0] = 20.0;
	t.phases[1] = 37.0;
	assert_int_equal(hl_auto_choose(&t, &b), 0);
	t = times(0.0, 0.0);    /* both over */
	assert_true(hl_auto_needs_phases(&t));
	t.phases[0] = 20.0;
	t.phases[1] = 10.0;
	assert_int_equal(hl_auto_choose(&t, &b), 1);
	assert_int_equal(b, HL_AUTO_BY_PHASES);
}

/* The sum of phases over the budget too: not compared, 2d kept, whichever
 * had its own time. */
static void uncompared(void **state)
{
	(void)state;
	hl_auto_basis b;
	hl_auto_times t = times(0.14, 0.0);
	t.phases[0] = 0.12;
	assert_int_equal(hl_auto_choose(&t, &b), 1);
	assert_int_equal(b, HL_AUTO_UNCOMPARED);
	t = times(0.0, 38.8);
	assert_int_equal(hl_auto_choose(&t, &b), 1);
	assert_int_equal(b, HL_AUTO_UNCOMPARED);
}

/* Not planned, or no model: the one predicted is kept, 1d when neither. */
static void one_predicted(void **state)
{
	(void)state;
	hl_auto_basis b;
	hl_auto_times t = times(0.0, 0.0);
	t.planned[1] = 0;
	t.over[1] = 0;
	assert_false(hl_auto_needs_phases(&t));
	assert_int_equal(hl_auto_choose(&t, &b), 0);
	assert_int_equal(b, HL_AUTO_ONE);
	t = (hl_auto_times){ .planned = { 1, 1 }, .own = { 0.0, 5.0 } };
	assert_int_equal(hl_auto_choose(&t, &b), 1);
	assert_int_equal(b, HL_AUTO_ONE);
	t = (hl_auto_times){ .planned = { 1, 1 } };
	assert_int_equal(hl_auto_choose(&t, &b), 0);
	assert_int_equal(b, HL_AUTO_ONE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(by_own_model),
		cmocka_unit_test(by_phases),
		cmocka_unit_test(uncompared),
		cmocka_unit_test(one_predicted),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
