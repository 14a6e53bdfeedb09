/* whereami -- each MPI rank finds the IPv4 addresses of the network
 * namespace it runs in (getifaddrs, 127.0.0.1 skipped) and sends them to
 * rank 0, which prints one line per rank in rank order:
 *
 *     rank 1 of 3: 10.213.7.12
 *
 * The gather is the point: it makes every rank talk to rank 0 over MPI, so
 * a run that prints all lines has passed messages between the hosts, not
 * only started processes on them.  Built by tests/e2e/multihost_test.sh with
 * mpicc.mpich. */
#include <arpa/inet.h>
#include <ifaddrs.h>
#include <mpi.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

enum { LINE = 256 };

/* Append the IPv4 addresses other than 127.0.0.1 to buf, space-separated;
 * "none" when there are none, "getifaddrs-failed" when the call fails. */
static void own_addresses(char *buf, size_t size)
{
	struct ifaddrs *list = NULL;
	size_t used = 0;

	buf[0] = '\0';
	if (getifaddrs(&list) != 0) {
		snprintf(buf, size, "getifaddrs-failed");
		return;
	}
	for (const struct ifaddrs *a = list; a != NULL; a = a->ifa_next) {
		char text[INET_ADDRSTRLEN];
		const struct sockaddr_in *in;

		if (a->ifa_addr == NULL || a->ifa_addr->sa_family != AF_INET)
			continue;
		in = (const struct sockaddr_in *)(const void *)a->ifa_addr;
		if (ntohl(in->sin_addr.s_addr) == INADDR_LOOPBACK)
			continue;
		if (inet_ntop(AF_INET, &in->sin_addr, text, sizeof text) == NULL)
			continue;
		int n = snprintf(buf + used, size - used, "%s%s",
			used > 0 ? " " : "", text);
		if (n < 0 || (size_t)n >= size - used)
			break;
		used += (size_t)n;
	}
	freeifaddrs(list);
	if (used == 0)
		snprintf(buf, size, "none");
}

int main(int argc, char **argv)
{
	int rank, size;
	char mine[LINE];
	char *all = NULL;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	own_addresses(mine, sizeof mine);
	if (rank == 0) {
		all = malloc((size_t)size * LINE);
		if (all == NULL) {
			fprintf(stderr, "whereami: out of memory\n");
			MPI_Abort(MPI_COMM_WORLD, 1);
		}
	}
	MPI_Gather(mine, LINE, MPI_CHAR, all, LINE, MPI_CHAR, 0,
		MPI_COMM_WORLD);
	if (rank == 0) {
		for (int r = 0; r < size; r++)
			printf("rank %d of %d: %s\n", r, size, all + (size_t)r * LINE);
		free(all);
	}
	MPI_Finalize();
	return 0;
}
