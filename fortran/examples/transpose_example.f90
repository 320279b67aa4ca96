! A cuperm transpose from Fortran: b(k, i, j) = a(i, j, k) on the GPU, checked
! on the host. Device memory through the CUDA runtime's C functions
! (cuda_runtime_f.f90); no CUDA Fortran needed. Exits 77 without a GPU.
program transpose_example
  use, intrinsic :: iso_c_binding
  use cuperm_f
  use cuda_runtime_f
  implicit none
  integer, parameter :: n1 = 37, n2 = 20, n3 = 9, m = 30
  real(c_double), allocatable, target :: a(:, :, :), b(:, :, :), c(:, :, :)
  real(c_double) :: seconds
  real(c_float), allocatable, target :: x(:, :), y(:, :)
  type(c_ptr) :: handle, plan, plan2, plan3, da, db, dx, dy
  type(cupermPlanInfo_t) :: info
  integer(c_size_t) :: abytes, xbytes
  integer :: i, j, k

  call require_gpu_or_skip('transpose_example')
  call ok(cuperm_create(handle), 'cuperm_create')

  ! Fortran's column-major a(n1, n2, n3) is cuperm's extents [n1, n2, n3].
  ! Output dimension r is input dimension perm(r) (1-based in the Fortran
  ! wrappers): perm = [3, 1, 2] gives b(n3, n1, n2) with b(k, i, j) = a(i, j, k),
  ! the same as reshape(a, [n3, n1, n2], order=[2, 3, 1]).
  allocate(a(n1, n2, n3), b(n3, n1, n2))
  do k = 1, n3
    do j = 1, n2
      do i = 1, n1
        a(i, j, k) = i + 100 * j + 10000 * k
      end do
    end do
  end do
  call ok(cuperm_transpose_plan(handle, plan, [int(n1, c_int64_t), int(n2, c_int64_t), int(n3, c_int64_t)], &
                                [3, 1, 2], CUPERM_R_64F), 'cuperm_transpose_plan')
  call ok(cuperm_plan_get_info(plan, info), 'cuperm_plan_get_info')
  print '(a, a, a, i0, a, es10.3, a)', 'plan: kernel ', cuperm_c_string(info%kernelName), &
      ', fused rank ', info%fusedRank, ', predicted ', info%predictedSeconds, ' s'

  abytes = c_sizeof(a(1, 1, 1)) * size(a, kind=c_size_t)
  call cuda_check(cudaMalloc(da, abytes), 'cudaMalloc a')
  call cuda_check(cudaMalloc(db, abytes), 'cudaMalloc b')
  call cuda_check(cudaMemcpy(da, c_loc(a), abytes, cudaMemcpyHostToDevice), 'copy a')

  ! b = 1 * perm(a) + 0 * b
  call ok(cuperm_execute(plan, 1.0_c_double, da, 0.0_c_double, db), 'cuperm_execute')
  call cuda_check(cudaDeviceSynchronize(), 'synchronize')
  call cuda_check(cudaMemcpy(c_loc(b), db, abytes, cudaMemcpyDeviceToHost), 'copy b')
  call expect(all(b == reshape(a, [n3, n1, n2], order=[2, 3, 1])), 'b = reshape(a, order=[2, 3, 1])')
  call expect(b(n3, 1, n2) == a(1, n2, n3) .and. b(2, 3, 4) == a(3, 4, 2), 'b(k, i, j) = a(i, j, k)')

  ! b = 2 * perm(a) + 1 * b = 3 * perm(a): beta reads b
  call ok(cuperm_execute(plan, 2.0_c_double, da, 1.0_c_double, db), 'cuperm_execute (beta = 1)')
  call cuda_check(cudaMemcpy(c_loc(b), db, abytes, cudaMemcpyDeviceToHost), 'copy b')
  call expect(all(b == 3 * reshape(a, [n3, n1, n2], order=[2, 3, 1])), 'b = 3 perm(a)')

  ! A section a(1:m, :, :) of a is a strided tensor: extents [m, n2, n3], a's
  ! strides. Into a dense c(n3, m, n2), on the device copy of a.
  allocate(c(n3, m, n2))
  call ok(cuperm_transpose_plan(handle, plan3, [m, n2, n3], [3, 1, 2], CUPERM_R_64F, &
                                in_strides=[1, n1, n1 * n2]), 'plan (section)')
  call ok(cuperm_predict_transpose_time(handle, [int(m, c_int64_t), int(n2, c_int64_t), int(n3, c_int64_t)], &
                                        [3, 1, 2], CUPERM_R_64F, seconds, &
                                        in_strides=[1_c_int64_t, int(n1, c_int64_t), int(n1 * n2, c_int64_t)]), &
          'cuperm_predict_transpose_time')
  call expect(seconds > 0, 'predicted time > 0')
  call ok(cuperm_execute(plan3, 1.0_c_double, da, 0.0_c_double, db), 'cuperm_execute (section)')
  call cuda_check(cudaMemcpy(c_loc(c), db, c_sizeof(c(1, 1, 1)) * size(c, kind=c_size_t), &
                             cudaMemcpyDeviceToHost), 'copy c')
  call expect(all(c == reshape(a(1:m, :, :), [n3, m, n2], order=[2, 3, 1])), 'c = perm(a(1:m, :, :))')

  ! A matrix transpose of single-precision data; default-integer extents work too.
  allocate(x(300, 129), y(129, 300))
  call random_number(x)
  xbytes = c_sizeof(x(1, 1)) * size(x, kind=c_size_t)
  call cuda_check(cudaMalloc(dx, xbytes), 'cudaMalloc x')
  call cuda_check(cudaMalloc(dy, xbytes), 'cudaMalloc y')
  ! measured: candidates timed on dx, dy (dy gets garbage) on the default stream
  call ok(cuperm_transpose_plan_measure(handle, plan2, [300_c_int64_t, 129_c_int64_t], [2, 1], CUPERM_R_32F, &
                                        dx, dy, stream=cuperm_stream(0_c_intptr_t)), 'measured plan (matrix)')
  call ok(cuperm_plan_get_info(plan2, info), 'cuperm_plan_get_info')
  call expect(info%measured == 1, 'info%measured = 1')
  call cuda_check(cudaMemcpy(dx, c_loc(x), xbytes, cudaMemcpyHostToDevice), 'copy x')
  call ok(cuperm_execute(plan2, 1.0_c_float, dx, 0.0_c_float, dy), 'cuperm_execute (matrix)')
  call cuda_check(cudaMemcpy(c_loc(y), dy, xbytes, cudaMemcpyDeviceToHost), 'copy y')
  call expect(all(y == transpose(x)), 'y = transpose(x)')

  call ok(cuperm_plan_destroy(plan), 'cuperm_plan_destroy')
  call ok(cuperm_plan_destroy(plan2), 'cuperm_plan_destroy')
  call ok(cuperm_plan_destroy(plan3), 'cuperm_plan_destroy')
  call ok(cuperm_destroy(handle), 'cuperm_destroy')
  call cuda_check(cudaFree(da), 'cudaFree')
  call cuda_check(cudaFree(db), 'cudaFree')
  call cuda_check(cudaFree(dx), 'cudaFree')
  call cuda_check(cudaFree(dy), 'cudaFree')
  print '(a)', 'transpose_example: OK'

contains

  subroutine ok(status, what)
    integer(c_int), intent(in) :: status
    character(len=*), intent(in) :: what
    if (status == CUPERM_STATUS_SUCCESS) return
    print '(a)', 'FAILED: ' // what // ': ' // cuperm_get_error_string(status) // ': ' // &
        cuperm_get_last_error_message()
    stop 1
  end subroutine

  subroutine expect(cond, what)
    logical, intent(in) :: cond
    character(len=*), intent(in) :: what
    if (cond) return
    print '(a)', 'FAILED: ' // what
    stop 1
  end subroutine

end program
