/*
 * test_nodes.c -- launcher/config/nodes.c: --nodes TYPE=COUNT lists, the
 * nodes read from `scontrol show node -o` (lines in Slurm 22.05's form,
 * as tests/e2e/slurm_test.sh's cluster prints them), and which node
 * matches which type.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "config/nodes.h"

static void counts(void **state)
{
	(void)state;
	hl_nodes a;
	char err[256];
	assert_int_equal(hl_nodes_parse_counts("gen1=4,gen3=2,0=1", &a, err, sizeof err), 0);
	assert_int_equal(a.by_count, 1);
	assert_int_equal(a.ncounts, 3);
	assert_string_equal(a.count_type[0], "gen1");
	assert_int_equal(a.count[0], 4);
	assert_string_equal(a.count_type[2], "0");   /* het_group 0 */
	assert_int_equal(a.count[2], 1);
	hl_nodes_free(&a);
	assert_int_equal(hl_nodes_parse_counts("gen1=0", &a, err, sizeof err), 0);
	assert_int_equal(a.count[0], 0);
	hl_nodes_free(&a);
	const char *bad[] = { "gen3", "=2", "gen3=", "gen3=x", "gen3=100001", "gen3=1234567",
		              "gen3=2,", ",gen3=2", "gen3=-1", "" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		err[0] = '\0';
		if (hl_nodes_parse_counts(bad[i], &a, err, sizeof err) != -1 ||
		    strstr(err, "TYPE=COUNT") == NULL)
			fail_msg("'%s' accepted or no message: %s", bad[i], err);
		assert_null(a.count_type);
	}
	assert_int_equal(hl_nodes_parse_counts("a=1,b=2,a=3", &a, err, sizeof err), -1);
	assert_non_null(strstr(err, "a is given twice"));
}

static const char SCONTROL[] =
	"NodeName=n1 Arch=x86_64 CoresPerSocket=1 CPUAlloc=0 CPUEfctv=4 CPUTot=4 CPULoad=0.35 "
	"AvailableFeatures=gen1,ib ActiveFeatures=gen1,ib Gres=(null) NodeAddr=10.77.0.2 "
	"NodeHostName=n1 Version=22.05.8 OS=Linux 6.1.0 #1 SMP PREEMPT_DYNAMIC RealMemory=1 "
	"AllocMem=0 FreeMem=N/A Sockets=4 Boards=1 State=IDLE ThreadsPerCore=1 TmpDisk=0 "
	"Weight=1 Owner=N/A MCS_label=N/A Partitions=old,test BootTime=None "
	"CfgTRES=cpu=4,mem=1M,billing=4 AllocTRES= CapWatts=n/a\n"
	"NodeName=n3 Arch=x86_64 CoresPerSocket=1 CPUAlloc=0 CPUEfctv=8 CPUTot=8 "
	"AvailableFeatures=(null) ActiveFeatures=(null) Gres=(null) Partitions=new "
	"State=IDLE\n";

static void scontrol(void **state)
{
	(void)state;
	hl_nodes a = { 0 };
	char err[256];
	assert_int_equal(hl_nodes_parse_scontrol(SCONTROL, &a, err, sizeof err), 0);
	assert_int_equal(a.n, 2);
	assert_string_equal(a.nodes[0].name, "n1");
	assert_string_equal(a.nodes[0].features, "gen1,ib");
	assert_string_equal(a.nodes[0].partitions, "old,test");
	assert_int_equal(a.nodes[0].cpus, 4);
	assert_string_equal(a.nodes[1].features, "");
	assert_int_equal(a.nodes[1].cpus, 8);
	assert_true(hl_node_matches(&a.nodes[0], HL_NT_FEATURE, "gen1", 0));
	assert_true(hl_node_matches(&a.nodes[0], HL_NT_FEATURE, "ib", 0));
	assert_false(hl_node_matches(&a.nodes[0], HL_NT_FEATURE, "gen", 0));   /* whole words */
	assert_true(hl_node_matches(&a.nodes[0], HL_NT_PARTITION, "test", 0));
	assert_false(hl_node_matches(&a.nodes[1], HL_NT_PARTITION, "old", 0));
	assert_false(hl_node_matches(&a.nodes[1], HL_NT_FEATURE, "", 0));
	a.nodes[1].het_group = 1;
	assert_true(hl_node_matches(&a.nodes[1], HL_NT_HET_GROUP, NULL, 1));
	assert_false(hl_node_matches(&a.nodes[0], HL_NT_HET_GROUP, NULL, 1));
	hl_nodes_free(&a);
	assert_int_equal(hl_nodes_parse_scontrol("NodeName= CPUTot=4\n", &a, err, sizeof err), -1);
	hl_nodes_free(&a);
	assert_int_equal(hl_nodes_parse_scontrol("", &a, err, sizeof err), 0);
	assert_int_equal(a.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(counts),
		cmocka_unit_test(scontrol),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
