! rma_f.F90 - one-sided calls through the Fortran bindings (mpif.h), for test/mpi/rma.sh:
! each of the 4 ranks creates a window of 100 doubles over the world, puts 8 doubles to its
! right neighbour in a fence epoch, then gets 2 doubles from it under an exclusive lock,
! accumulates 1 double under a shared one, and frees the window.
program rma_f
  implicit none
  include 'mpif.h'
  integer :: ierr, me, np, win, right
  integer(kind=MPI_ADDRESS_KIND) :: wsize, disp
  double precision :: a(100)
  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, me, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, np, ierr)
  right = mod(me + 1, np)
  a = 1.0d0
  wsize = 800
  disp = 0
  call MPI_WIN_CREATE(a, wsize, 8, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  call MPI_WIN_FENCE(0, win, ierr)
  call MPI_PUT(a, 8, MPI_DOUBLE_PRECISION, right, disp, 8, MPI_DOUBLE_PRECISION, win, ierr)
  call MPI_WIN_FENCE(0, win, ierr)
  call MPI_WIN_LOCK(MPI_LOCK_EXCLUSIVE, right, 0, win, ierr)
  call MPI_GET(a(50), 2, MPI_DOUBLE_PRECISION, right, disp, 2, MPI_DOUBLE_PRECISION, win, ierr)
  call MPI_WIN_UNLOCK(right, win, ierr)
  call MPI_WIN_LOCK(MPI_LOCK_SHARED, right, 0, win, ierr)
  call MPI_ACCUMULATE(a, 1, MPI_DOUBLE_PRECISION, right, disp, 1, MPI_DOUBLE_PRECISION, MPI_SUM, win, ierr)
  call MPI_WIN_UNLOCK(right, win, ierr)
  call MPI_WIN_FREE(win, ierr)
  call MPI_FINALIZE(ierr)
end program rma_f
