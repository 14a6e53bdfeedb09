! fabort.f90 -- BLACS starts MPI (its C MPI_Init, which the runtime
! interposes); rank R then calls Fortran's MPI_ABORT with code C
! (R and C: the command line's two arguments).
program fabort
  implicit none
  include 'mpif.h'
  integer :: me, np, ierr, r, c
  character(len=16) :: arg
  call blacs_pinfo(me, np)
  call get_command_argument(1, arg)
  read (arg, *) r
  call get_command_argument(2, arg)
  read (arg, *) c
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  if (me == r) call MPI_ABORT(MPI_COMM_WORLD, c, ierr)
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  call blacs_exit(0)
end program fabort
