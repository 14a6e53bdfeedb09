/*
 * vsim.h -- dense kernels played out on the virtual clock's arithmetic
 *, for the seconds models whose steps overlap too much for a sum
 * of phases (mm_time.c, qr_time.c).  One clock per process of a P x Q grid;
 * a machine's processes share its processor calendar; a message between
 * machines books the sender's port, or the one bus, from the sender's clock
 * for bytes / bandwidth (vproc/model/model.h, as the emulation does), holds the
 * sender while its bytes go out and arrives after the latency; a message
 * inside a machine arrives at the sender's clock.  Bookings are made in the
 * order the model calls them (the emulation makes them in real order).
 * Pure (vproc rules).
 */
#ifndef VPROC_DENSE_VSIM_H
#define VPROC_DENSE_VSIM_H

#include "model/model.h"
#include "lu_time.h"

typedef struct {
	const vproc_lu_platform *pl;
	unsigned long long *clock;   /* [P*Q] each process's virtual clock, ns */
	vproc_calendar *cpu;         /* [nmachines] processors */
	vproc_calendar *wire;        /* [nmachines] ports, or [0] the bus */
	vproc_interval *iv;          /* the calendars' storage */
	double *work;                /* [nmachines] flops charged */
	size_t *scratch;             /* [P*Q + nmachines] */
	unsigned long long *aux;     /* [P*Q] a step's own clocks (lu_play's column play) */
} vproc_vsim;

/* VPROC_OK, VPROC_EINVAL (vproc_lu_platform_check), VPROC_ENOMEM. */
vproc_status vproc_vsim_init(vproc_vsim *s, const vproc_lu_platform *pl);
void vproc_vsim_free(vproc_vsim *s);

/* Machine m's latency to the network, seconds (the bus's when shared). */
double vproc_vsim_latency(const vproc_lu_platform *pl, size_t m);

/* One message of `bytes` from process a to process b (indices p * Q + q);
 * none when bytes <= 0. */
void vproc_vsim_message(vproc_vsim *s, size_t a, size_t b, double bytes);

/* An empty message's bytes (MPI_Barrier's): positive, so that
 * vproc_vsim_message sends it, and 0 once rounded, so that it pays the
 * latency alone, as the emulation's empty messages do. */
#define VPROC_VSIM_EMPTY 1e-9

/* Its sending half: books a's port (or the bus) from a's clock, moves a's
 * clock past the transfer and returns the arrival; b's clock is left to
 * the caller (lu_row_play.c receives it when b reaches its receive). */
unsigned long long vproc_vsim_send(vproc_vsim *s, size_t a, size_t b, double bytes);

/* Processes a and b exchange `bytes` each way: both send, then receive
 * (each arrives after the other's send, not after a round trip). */
void vproc_vsim_exchange(vproc_vsim *s, size_t a, size_t b, double bytes);

/* BLACS's rings over first + i * stride (count of them) from index root,
 * each process forwarding after it has the message: step 1 the
 * increasing ring (BI_IdringBS/BR), count - 1 the decreasing one. */
void vproc_vsim_ring(vproc_vsim *s, size_t first, size_t stride, size_t count, size_t root,
                     size_t step, double bytes);

/* The machines' leaders among first + i * stride (count of them), from
 * the i = root: the first process met of each machine.  Fills lead[0..]
 * with process indices and returns how many; lead_of[m] is the leader of
 * machine m (valid for the machines met).  lead and lead_of may be
 * s->scratch and s->scratch + P * Q. */
size_t vproc_vsim_leaders(const vproc_vsim *s, size_t first, size_t stride, size_t count,
                          size_t root, size_t *lead, size_t *lead_of);

/* MPI_Bcast from index root over first + i * stride, as MPICH and the
 * runtime send it (vproc/runtime/bindings/coll.c): a binomial tree over one leader
 * per machine (the root leads its own), each sending to its children the
 * farthest first, then free inside each machine. */
void vproc_vsim_bcast(vproc_vsim *s, size_t first, size_t stride, size_t count, size_t root,
                      double bytes);

/* A reduction to index root over the same processes, the tree reversed:
 * inside each machine to its leader, then up the leaders' binomial tree. */
void vproc_vsim_reduce(vproc_vsim *s, size_t first, size_t stride, size_t count, size_t root,
                       double bytes);

/* PBLAS's inlined 1-tree combine to index 0 (pdamax_.c, pdnrm2_.c:
 * member r sends to r - k at the level k with r mod 2k = k), over the
 * members, not the machines (colplay.h's vproc_col_tree, on clocks
 * alone). */
void vproc_vsim_tree(vproc_vsim *s, size_t first, size_t stride, size_t count, double bytes);

/* MPI_Allreduce as the runtime sends it (coll.c): reduced to index 0,
 * then broadcast from it. */
void vproc_vsim_allreduce(vproc_vsim *s, size_t first, size_t stride, size_t count, double bytes);

/* ScaLAPACK's GLOBCHK (TOOLS/pchkxmat.f: PCHK1MAT and PCHK2MAT, called
 * by PDGETRF, PDGETRS, PDGEQRF): process (0, 0) broadcasts the checked
 * arguments to all (IGEBS2D 'All', ' ': MPI_Bcast), then all agree on
 * INFO (IGAMN2D 'All': MPI_Allreduce). */
#define VPROC_VSIM_GLOBCHK_INTS 8
void vproc_vsim_globchk(vproc_vsim *s);

/* hl-driver's timer (launcher/programs/driver.c, hlmpi.c): MPI_Barrier,
 * then each rank's clock from its exit; at the end MPI_Barrier again and
 * the slowest rank's time from its start to its exit.  Both barriers
 * leave rank 0 first and the others after the same fan-out, so each rank
 * measures the end barrier's fan-in at rank 0 from rank 0's start:
 * timer_start plays the first fan-out from clocks at 0 (each rank starts
 * when it leaves), timer_stop the last fan-in (rank 0's clock is then the
 * last and the measured time). */
void vproc_vsim_timer_start(vproc_vsim *s);
void vproc_vsim_timer_stop(vproc_vsim *s);

/* Process i computes `flops` on its machine's processor. */
void vproc_vsim_compute(vproc_vsim *s, size_t i, double flops);

/* Forget the calendars' past (before the earliest clock); the last clock
 * in seconds; the busiest machine's charged flops in seconds. */
void vproc_vsim_forget(vproc_vsim *s);
double vproc_vsim_last(const vproc_vsim *s);
double vproc_vsim_busiest(const vproc_vsim *s);

/* Play a kernel out: step(s, k, lo, kb) for every block column k of pl->n
 * (lo = k b, kb its width), the calendars' past forgotten after each;
 * out->total the last clock, out->compute the busiest machine's charged
 * flops, out->network the rest.  VPROC_OK, VPROC_EINVAL, VPROC_ENOMEM. */
typedef void vproc_vsim_step(vproc_vsim *s, size_t k, size_t lo, size_t kb);
vproc_status vproc_vsim_run(const vproc_lu_platform *pl, vproc_vsim_step *step,
                            vproc_lu_seconds *out);

/* The same with a phase before the steps and one after (either NULL). */
typedef void vproc_vsim_phase(vproc_vsim *s);
vproc_status vproc_vsim_play(const vproc_lu_platform *pl, vproc_vsim_phase *begin,
                             vproc_vsim_step *step, vproc_vsim_phase *end, vproc_lu_seconds *out);

#endif
