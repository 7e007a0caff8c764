! calls_f.f90 - the Fortran twin of calls.c: calls the traced MPI calls through the
! Fortran bindings and writes the trace lines it expects (all but compute lines) to
! EXPECTED_DIR/expected-RANK.txt.
! usage: mpirun -np 4 tir-trace -o DIR -- ./calls_f EXPECTED_DIR     (exactly 4 ranks)
! The bindings: mpif.h (as the NAS Parallel Benchmarks do) by default, `use mpi` with
! -DUSE_MPI_MODULE, `use mpi_f08` with -DUSE_MPI_F08 (handles of TYPE(MPI_Comm) & co,
! statuses of TYPE(MPI_Status)).
! Built with -ltirtrace it also names regions with tir_region_begin/end; built with
! -DNO_TIR_REGIONS it runs under LD_PRELOAD only (tir-trace), as an unmodified code would.
! What it checks beyond calls.c: the Fortran wrappers (handle conversion with MPI_*_f2c,
! 1-based indices of waitany/waitsome/testany/testsome, Fortran MPI_STATUS(ES)_IGNORE and
! MPI_IN_PLACE, LOGICAL flags) and Fortran region names.
module expect
  implicit none
  integer :: me, ex, right, left, nbc
  logical :: sg
contains
  subroutine e(s)               ! one expected line "RANK s"
    character(len=*), intent(in) :: s
    write(ex, '(I0,1X,A)') me, trim(s)
  end subroutine e
  subroutine x(s)               ! a tir-only line: a comment in --simgrid-compatible mode
    character(len=*), intent(in) :: s
    if (sg) then
      write(ex, '(A,I0,1X,A)') '# ', me, trim(s)
    else
      call e(s)
    end if
  end subroutine x
  function f(fmt, a, b, c, d) result(s)  ! format up to four integers with I0
    character(len=*), intent(in) :: fmt
    integer, intent(in) :: a
    integer, intent(in), optional :: b, c, d
    character(len=200) :: s
    if (present(d)) then
      write(s, fmt) a, b, c, d
    else if (present(c)) then
      write(s, fmt) a, b, c
    else if (present(b)) then
      write(s, fmt) a, b
    else
      write(s, fmt) a
    end if
  end function f
end module expect

program calls_f
  use expect
#if defined(USE_MPI_F08)
  use mpi_f08
#elif defined(USE_MPI_MODULE)
  use mpi
#endif
  implicit none
#if !defined(USE_MPI_F08) && !defined(USE_MPI_MODULE)
  include 'mpif.h'
#endif
  integer :: ierr, n, i, j, k, idx, outc, ibuf(64), rbuf(64), sc(4), rc(4), dz(4)
#ifdef USE_MPI_F08
  type(MPI_Request) :: rq(4)
  type(MPI_Status) :: st, sts(4)
  type(MPI_Comm) :: half, dup, cart, col
  character(len=MPI_MAX_LIBRARY_VERSION_STRING) :: ver
#else
  integer :: rq(4), st(MPI_STATUS_SIZE), sts(MPI_STATUS_SIZE, 4)
  integer :: half, dup, cart, col
#endif
  integer :: idxs(4), dims(2), r1, ival, ib
  logical :: flag, periods(2), remain(2), done(2)
  double precision :: d(16)
  character(len=4096) :: dir
  character(len=200) :: line

  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, me, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, n, ierr)
  call get_command_argument(1, dir)
  if (n /= 4 .or. len_trim(dir) == 0) call MPI_ABORT(MPI_COMM_WORLD, 2, ierr)
  call get_environment_variable('TIR_SIMGRID', line)
  sg = trim(line) == '1'
  ! ib: what to add to the indices MPI_Waitany & co return to make them 1-based: 0, but 1
  ! for MPICH 4.0's mpi_f08 module, which returns C's 0-based ones (pmodels/mpich#6270)
  ib = 0
#ifdef USE_MPI_F08
  call MPI_GET_LIBRARY_VERSION(ver, i, ierr)
  j = index(ver, 'MPICH Version:')
  if (j > 0) then
    k = j + 13 + verify(ver(j + 14:), ' ' // char(9))   ! the version, after blanks and tabs
    if (ver(k:k + 3) == '4.0.') ib = 1
  end if
#endif
  write(line, '(A,A,I0,A)') trim(dir), '/expected-', me, '.txt'
  open(newunit=ex, file=trim(line), status='replace', action='write')
  right = mod(me + 1, 4)
  left = mod(me + 3, 4)
  r1 = me + 1
  nbc = 0
  ibuf = 0
  d = 0
  dz = 0
  call e('init')

  ! --- blocking point to point: ring of 10 integers (40 bytes), tag 1
  if (mod(me, 2) == 0) then
    call MPI_SEND(ibuf, 10, MPI_INTEGER, right, 1, MPI_COMM_WORLD, ierr)
    call e(f('("send ",I0," 1 40")', right))
    call MPI_RECV(rbuf, 10, MPI_INTEGER, left, 1, MPI_COMM_WORLD, st, ierr)
    call e(f('("recv ",I0," 1 40")', left))
  else
    call MPI_RECV(rbuf, 10, MPI_INTEGER, left, 1, MPI_COMM_WORLD, st, ierr)
    call e(f('("recv ",I0," 1 40")', left))
    call MPI_SEND(ibuf, 10, MPI_INTEGER, right, 1, MPI_COMM_WORLD, ierr)
    call e(f('("send ",I0," 1 40")', right))
  end if
  if (me == 0) then
    call MPI_SSEND(d, 3, MPI_DOUBLE_PRECISION, 1, 2, MPI_COMM_WORLD, ierr)
    call e('send 1 2 24')
  else if (me == 1) then
    call MPI_RECV(d, 3, MPI_DOUBLE_PRECISION, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &
                  MPI_STATUS_IGNORE, ierr)
    call e('recv 0 2 24')
  end if
  if (me == 3) then
    call MPI_IRECV(ival, 1, MPI_INTEGER, 0, 5, MPI_COMM_WORLD, rq(1), ierr)
    call e('irecv 0 5 4')
  end if
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  call e('barrier')
  if (me == 0) then
    call MPI_RSEND(ival, 1, MPI_INTEGER, 3, 5, MPI_COMM_WORLD, ierr)
    call e('send 3 5 4')
  else if (me == 3) then
    call MPI_WAIT(rq(1), st, ierr)
    call e('wait 0 3 5')
  end if

  ! --- non-blocking: waitall of everything, waitany, waitsome (1-based indices)
  call pair(10, 10)
  call MPI_WAITALL(2, rq, MPI_STATUSES_IGNORE, ierr)
  call e('waitall')
  call pair(1, 13)
  do k = 1, 2
    call MPI_WAITANY(2, rq, idx, st, ierr)
    idx = idx + ib
    call e(key(idx, 13, 'wait'))
  end do
  call pair(1, 14)
  k = 0
  do while (k < 2)
    call MPI_WAITSOME(2, rq, outc, idxs, sts, ierr)
    idxs = idxs + ib
    do j = 1, outc
      call e(key(idxs(j), 14, 'wait'))
      k = k + 1
    end do
  end do
  ! --- tests
  call pair(1, 15)
  flag = .false.
  do while (.not. flag)
    call MPI_TEST(rq(1), flag, st, ierr)
    call e(tf(key(1, 15, 'test'), flag))
  end do
  call MPI_WAIT(rq(2), MPI_STATUS_IGNORE, ierr)
  call e(key(2, 15, 'wait'))
  call pair(1, 16)
  flag = .false.
  do while (.not. flag)
    call MPI_TESTALL(2, rq, flag, sts, ierr)
    call e(tf(key(1, 16, 'test'), flag))
    if (flag) call e(tf(key(2, 16, 'test'), .true.))
  end do
  call pair(1, 17)
  done = .false.
  do while (.not. (done(1) .and. done(2)))
    call MPI_TESTANY(2, rq, idx, flag, st, ierr)
    if (flag) idx = idx + ib
    if (flag) then
      done(idx) = .true.
      call e(tf(key(idx, 17, 'test'), .true.))
    else if (done(1)) then
      call e(tf(key(2, 17, 'test'), .false.))
    else
      call e(tf(key(1, 17, 'test'), .false.))
    end if
  end do
  call pair(1, 18)
  done = .false.
  do while (.not. (done(1) .and. done(2)))
    call MPI_TESTSOME(2, rq, outc, idxs, MPI_STATUSES_IGNORE, ierr)
    idxs = idxs + ib
    if (outc == 0) then
      if (done(1)) then
        call e(tf(key(2, 18, 'test'), .false.))
      else
        call e(tf(key(1, 18, 'test'), .false.))
      end if
    end if
    do j = 1, outc
      done(idxs(j)) = .true.
      call e(tf(key(idxs(j), 18, 'test'), .true.))
    end do
  end do
  ! any source irecv, patched
  call MPI_IRECV(ival, 1, MPI_INTEGER, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, rq(1), ierr)
  call e(f('("irecv ",I0," 19 4")', left))
  call MPI_ISEND(ibuf, 1, MPI_INTEGER, right, 19, MPI_COMM_WORLD, rq(2), ierr)
  call e(f('("isend ",I0," 19 4")', right))
  call MPI_WAITALL(2, rq, sts, ierr)
  call e('waitall')

  ! --- persistent requests, request_free
  call MPI_RECV_INIT(rbuf, 2, MPI_INTEGER, left, 21, MPI_COMM_WORLD, rq(1), ierr)
  call MPI_SEND_INIT(ibuf, 2, MPI_INTEGER, right, 21, MPI_COMM_WORLD, rq(2), ierr)
  call MPI_STARTALL(2, rq, ierr)
  call e(f('("irecv ",I0," 21 8")', left))
  call e(f('("isend ",I0," 21 8")', right))
  call MPI_WAITALL(2, rq, MPI_STATUSES_IGNORE, ierr)
  call e('waitall')
  call MPI_START(rq(1), ierr)
  call e(f('("irecv ",I0," 21 8")', left))
  call MPI_START(rq(2), ierr)
  call e(f('("isend ",I0," 21 8")', right))
  call MPI_WAIT(rq(1), st, ierr)
  call e(key(1, 21, 'wait'))
  call MPI_WAIT(rq(2), st, ierr)
  call e(key(2, 21, 'wait'))
  call MPI_REQUEST_FREE(rq(1), ierr)
  call MPI_REQUEST_FREE(rq(2), ierr)

  ! --- sendrecv
  call MPI_SENDRECV(ibuf, 3, MPI_INTEGER, right, 0, rbuf, 3, MPI_INTEGER, left, 0, &
                    MPI_COMM_WORLD, st, ierr)
  call e(f('("sendRecv 12 ",I0," 12 ",I0," 6 6")', right, left))
  call MPI_SENDRECV_REPLACE(d, 2, MPI_DOUBLE_PRECISION, right, 31, left, 31, MPI_COMM_WORLD, &
                            MPI_STATUS_IGNORE, ierr)
  call e(f('("isend ",I0," 31 16")', right))
  call e(f('("irecv ",I0," 31 16")', left))
  call e(f('("wait ",I0,1X,I0," 31")', me, right))
  call e(f('("wait ",I0,1X,I0," 31")', left, me))

  ! --- probe, iprobe
  if (me == 0) then
    call MPI_SEND(ibuf, 4, MPI_INTEGER, 1, 40, MPI_COMM_WORLD, ierr)
    call e('send 1 40 16')
  else if (me == 1) then
    flag = .false.
    do while (.not. flag)
      call MPI_IPROBE(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, flag, st, ierr)
      if (flag) then
        call x('iprobe 0 40 1')
      else
        call x('iprobe -555 -444 0')
      end if
    end do
    call MPI_PROBE(0, 40, MPI_COMM_WORLD, st, ierr)
    call x('probe 0 40')
    call MPI_RECV(rbuf, 4, MPI_INTEGER, 0, 40, MPI_COMM_WORLD, st, ierr)
    call e('recv 0 40 16')
  end if

  ! --- collectives
  call MPI_BCAST(ibuf, 10, MPI_INTEGER, 2, MPI_COMM_WORLD, ierr)
  call e('bcast 40 2')
  call MPI_REDUCE(d, d(9), 3, MPI_DOUBLE_PRECISION, MPI_SUM, 1, MPI_COMM_WORLD, ierr)
  call e('reduce 24 0 1')
  call MPI_ALLREDUCE(MPI_IN_PLACE, ibuf, 5, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD, ierr)
  call e('allreduce 20 0')
  call MPI_ALLTOALL(ibuf, 2, MPI_INTEGER, rbuf, 2, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call e('alltoall 8 8')
  do j = 1, 4
    sc(j) = j
    rc(j) = r1
  end do
  call MPI_ALLTOALLV(ibuf, sc, dz, MPI_INTEGER, rbuf, rc, dz, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  write(line, '("alltoallv 40 4 8 12 16 ",I0,4(1X,I0))') 16 * r1, 4 * r1, 4 * r1, 4 * r1, 4 * r1
  call e(line)
  do j = 1, 4
    rc(j) = 1
  end do
  call MPI_ALLTOALLV(MPI_IN_PLACE, sc, dz, MPI_INTEGER, rbuf, rc, dz, MPI_INTEGER, &
                     MPI_COMM_WORLD, ierr)  ! in place: the receive counts for both sides
  call e('alltoallv 16 4 4 4 4 16 4 4 4 4')
  call MPI_GATHER(ibuf, 2, MPI_INTEGER, rbuf, 2, MPI_INTEGER, 3, MPI_COMM_WORLD, ierr)
  call e('gather 8 8 3')
  do j = 1, 4
    rc(j) = j
  end do
  call MPI_GATHERV(ibuf, r1, MPI_INTEGER, rbuf, rc, dz, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  if (me == 0) then
    call e('gatherv 4 4 8 12 16 0')
  else
    call e(f('("gatherv ",I0," 0 0 0 0 0")', 4 * r1))
  end if
  call MPI_SCATTER(d, 3, MPI_DOUBLE_PRECISION, d(9), 3, MPI_DOUBLE_PRECISION, 0, &
                   MPI_COMM_WORLD, ierr)
  call e('scatter 24 24 0')
  call MPI_SCATTERV(ibuf, rc, dz, MPI_INTEGER, rbuf, r1, MPI_INTEGER, 1, MPI_COMM_WORLD, ierr)
  if (me == 1) then
    call e('scatterv 4 8 12 16 8 1')
  else
    call e(f('("scatterv 0 0 0 0 ",I0," 1")', 4 * r1))
  end if
  call MPI_ALLGATHER(d, 1, MPI_DOUBLE_PRECISION, d(9), 1, MPI_DOUBLE_PRECISION, &
                     MPI_COMM_WORLD, ierr)
  call e('allgather 8 8')
  call MPI_ALLGATHERV(ibuf, r1, MPI_INTEGER, rbuf, rc, dz, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call e(f('("allgatherv ",I0," 4 8 12 16")', 4 * r1))
  call MPI_REDUCE_SCATTER(ibuf, rbuf, rc, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call e('reducescatter 4 8 12 16 0')
  call MPI_REDUCE_SCATTER_BLOCK(ibuf, rbuf, 2, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call e('reducescatter 8 8 8 8 0')
  call MPI_SCAN(ibuf, rbuf, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call e('scan 4 0')
  call MPI_EXSCAN(ibuf, rbuf, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call e('exscan 4 0')

  ! --- communicators
  call MPI_COMM_DUP(MPI_COMM_WORLD, dup, ierr)
  if (sg) then
    call e('comm_dup')
  else
    call e('comm_dup 1 4 0 1 2 3')
  end if
  call MPI_COMM_SPLIT(MPI_COMM_WORLD, mod(me, 2), -me, half, ierr)
  i = 2 + mod(me, 2)            ! members, reversed: [2 0] and [3 1]
  j = mod(me, 2)
  if (sg) then
    call e('comm_split')
  else
    call e(f('("comm_split 2 2 ",I0,1X,I0)', i, j))
  end if
  call MPI_BCAST(ibuf, 2, MPI_INTEGER, 0, half, ierr)
  if (.not. sg) call e(f('("comm 2 bcast 8 ",I0)', i))
  dims = 2
  periods = .true.
  remain = (/ .true., .false. /)
  call MPI_CART_CREATE(MPI_COMM_WORLD, 2, dims, periods, .false., cart, ierr)
  call x('comm_create 3 4 0 1 2 3')
  call MPI_CART_SUB(cart, remain, col, ierr)
  if (sg) then
    call e('comm_split')
  else
    call e(f('("comm_split 4 2 ",I0,1X,I0)', mod(me, 2), mod(me, 2) + 2))
  end if
  call MPI_COMM_FREE(col, ierr)
  call MPI_COMM_FREE(cart, ierr)
  call MPI_COMM_FREE(half, ierr)
  call MPI_COMM_FREE(dup, ierr)

  ! --- non-blocking collectives
  call MPI_IBCAST(ibuf, 4, MPI_INTEGER, 0, MPI_COMM_WORLD, rq(1), ierr)
  call nb('bcast 16 0', .true.)
  call MPI_IALLREDUCE(d, d(9), 2, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, rq(1), ierr)
  call nb('allreduce 16 0', .false.)
  call MPI_IBARRIER(MPI_COMM_WORLD, rq(2), ierr)
  call nb('barrier', .false.)
  call MPI_WAITALL(2, rq, MPI_STATUSES_IGNORE, ierr)
  if (.not. sg) call e('waitall')
  call MPI_IALLGATHER(ibuf, 1, MPI_INTEGER, rbuf, 1, MPI_INTEGER, MPI_COMM_WORLD, rq(1), ierr)
  call nb('allgather 4 4', .true.)

  ! --- regions
  call MPI_PCONTROL(1)
  call x('region pcontrol')
  call MPI_PCONTROL(0)
  call x('region_end pcontrol')
#ifndef NO_TIR_REGIONS
  call tir_region_begin('solve')
  call x('region solve')
  call tir_region_end('solve')
  call x('region_end solve')
#endif

  call e('finalize')
  close(ex)
  call MPI_FINALIZE(ierr)

contains
  subroutine pair(cnt, t)       ! irecv from left into rq(1), isend to right into rq(2)
    integer, intent(in) :: cnt, t
    call MPI_IRECV(rbuf, cnt, MPI_INTEGER, left, t, MPI_COMM_WORLD, rq(1), ierr)
    call e(f('("irecv ",I0,1X,I0,1X,I0)', left, t, 4 * cnt))
    call MPI_ISEND(ibuf, cnt, MPI_INTEGER, right, t, MPI_COMM_WORLD, rq(2), ierr)
    call e(f('("isend ",I0,1X,I0,1X,I0)', right, t, 4 * cnt))
  end subroutine pair
  function tf(line, done) result(s) ! a test line's FLAG (tir mode): 0 a failed poll, 1 a completion
    character(len=*), intent(in) :: line
    logical, intent(in) :: done
    character(len=200) :: s
    if (sg) then
      s = line
    else if (done) then
      s = trim(line) // ' 1'
    else
      s = trim(line) // ' 0'
    end if
  end function tf
  function key(i, t, act) result(s) ! "act S D T" of pair()'s request i (1 recv, 2 send)
    integer, intent(in) :: i, t
    character(len=*), intent(in) :: act
    character(len=200) :: s
    if (i == 1) then
      write(s, '(A,1X,I0,1X,I0,1X,I0)') act, left, me, t
    else
      write(s, '(A,1X,I0,1X,I0,1X,I0)') act, me, right, t
    end if
  end function key
  subroutine nb(s, wait)        ! a non-blocking collective's line, and its MPI_WAIT
    character(len=*), intent(in) :: s
    logical, intent(in) :: wait
    if (sg) then
      call e(s)
    else
      call e('i' // s)
    end if
    nbc = nbc + 1
    if (wait) then
      call MPI_WAIT(rq(1), MPI_STATUS_IGNORE, ierr)
      if (.not. sg) call e(f('("wait ",I0,1X,I0,1X,I0)', me, me, -nbc))
    end if
  end subroutine nb
end program calls_f
