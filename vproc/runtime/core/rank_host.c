/*
 * placement.c -- each rank says where it really runs.
 *
 * The plan balances the work only if rank k runs on the machine the plan
 * gave it, and that is up to the launcher (Hydra's host file, srun's
 * SLURM_HOSTFILE, Open MPI's rankfile), which may read the file otherwise
 * than we think.  So the launcher's word is not taken: at MPI_Init every
 * rank writes one tagged line to its stderr, which every launcher forwards
 * to hetlaunch's log,
 *
 *     hetlaunch-placement: rank 3 host NAME node SLURMNODE addrs A,B
 *
 * NAME is gethostname(), SLURMNODE the Slurm node name when srun started
 * this rank itself (HETLAUNCH_PLACEMENT=slurm; "-" otherwise: under
 * mpiexec, SLURMD_NODENAME is inherited from wherever mpiexec runs --
 * measured with Hydra's -launcher slurm, ranks on n3 said n1), A,B the IPv4 addresses of the rank's network namespace other
 * than 127.0.0.1 ("-" if none).  hetlaunch (launcher/launch/placement.c) matches
 * them against the plan's host of each rank.  stderr rather than a file in
 * the run directory: the ranks' hosts need not share a file system with
 * hetlaunch.  Only when HETLAUNCH_PLACEMENT is 1 or slurm (set by hetlaunch
 * run), so a program preloaded by hand prints nothing more.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core.h"

/* The IPv4 addresses but 127.0.0.1, comma separated, into buf. */
static void addresses(char *buf, size_t size)
{
	struct ifaddrs *list = NULL;
	size_t used = 0;
	buf[0] = '\0';
	if (getifaddrs(&list) == 0) {
		for (const struct ifaddrs *a = list; a != NULL; a = a->ifa_next) {
			char text[INET_ADDRSTRLEN];
			if (a->ifa_addr == NULL || a->ifa_addr->sa_family != AF_INET)
				continue;
			const struct sockaddr_in *in = (const void *)a->ifa_addr;
			if (ntohl(in->sin_addr.s_addr) == INADDR_LOOPBACK ||
			    inet_ntop(AF_INET, &in->sin_addr, text, sizeof text) == NULL)
				continue;
			int n = snprintf(buf + used, size - used, "%s%s", used ? "," : "", text);
			if (n < 0 || (size_t)n >= size - used)
				break;
			used += (size_t)n;
		}
		freeifaddrs(list);
	}
	if (used == 0)
		snprintf(buf, size, "-");
}

void vr_placement_report(void)
{
	const char *on = getenv("HETLAUNCH_PLACEMENT");
	int slurm = on && strcmp(on, "slurm") == 0;
	if (on == NULL || (strcmp(on, "1") != 0 && !slurm))
		return;
	int rank = -1;
	PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
	char host[256] = "", addrs[1024];
	if (gethostname(host, sizeof host - 1) != 0 || host[0] == '\0')
		snprintf(host, sizeof host, "-");
	const char *node = slurm ? getenv("SLURMD_NODENAME") : NULL;
	addresses(addrs, sizeof addrs);
	char line[1600];
	int n = snprintf(line, sizeof line, "hetlaunch-placement: rank %d host %s node %s addrs %s\n",
	                 rank, host, node && node[0] ? node : "-", addrs);
	if (n <= 0)
		return;
	/* One write: the line reaches the launcher whole (< PIPE_BUF). */
	if (write(2, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1) < 0)
		return;
}
